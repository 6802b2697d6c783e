package dev.zklock.interceptor;

import java.time.Duration;

import dev.zklock.DistributedLock;
import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.testsupport.BusyMachine;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Lock types chosen on the annotation and through {@link LockRequest}, against holders in
 * another ZooKeeper session.
 */
class LockTypeAnnotationTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static ZooKeeperLockRegistry otherProcess;

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withBean(CatalogService.class);

	@BeforeAll
	static void connectOtherProcess() throws Exception {
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	@Test
	void readMethodsShareTheKeyWithOtherReadersAndWriteMethodsDoNot() {
		this.contextRunner.run((context) -> {
			CatalogService catalog = context.getBean(CatalogService.class);
			AcquiredLock reader = otherProcess.acquire("catalog", LockType.READ, 1, Duration.ofSeconds(10));
			try {
				assertThat(catalog.read()).isEqualTo("read");
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(catalog::write);
			}
			finally {
				reader.release();
			}
			// a release sends its deletion without waiting: another process finds the
			// key free once ZooKeeper has applied it
			await().atMost(BusyMachine.MARGIN).until(() -> otherProcess.queueOf("catalog").isEmpty());
			assertThat(catalog.write()).isEqualTo("written");
		});
	}

	@Test
	void semaphoreMethodsTakeOneOfTheirPermits() {
		this.contextRunner.run((context) -> {
			CatalogService catalog = context.getBean(CatalogService.class);
			AcquiredLock first = otherProcess.acquire("slots", LockType.SEMAPHORE, 2, Duration.ofSeconds(10));
			assertThat(catalog.slot()).isEqualTo("slot");
			AcquiredLock second = otherProcess.acquire("slots", LockType.SEMAPHORE, 2, Duration.ofSeconds(10));
			try {
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(catalog::slot);
			}
			finally {
				second.release();
				first.release();
			}
		});
	}

	@Test
	void templateTakesTheLockARequestAsksFor() {
		this.contextRunner.run((context) -> {
			LockTemplate template = context.getBean(LockTemplate.class);
			AcquiredLock reader = otherProcess.acquire("report", LockType.READ, 1, Duration.ofSeconds(10));
			try {
				String read = template.execute(LockRequest.read("report").withWaitTime(Duration.ZERO),
						(lock) -> "read");
				assertThat(read).isEqualTo("read");
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> template
					.execute(LockRequest.write("report").withWaitTime(Duration.ofMillis(100)), (lock) -> "written"));
			}
			finally {
				reader.release();
			}
		});
	}

	static class CatalogService {

		@DistributedLock(key = "'catalog'", type = LockType.READ, waitTime = "0")
		String read() {
			return "read";
		}

		@DistributedLock(key = "'catalog'", type = LockType.WRITE, waitTime = "0")
		String write() {
			return "written";
		}

		@DistributedLock(key = "'slots'", type = LockType.SEMAPHORE, permits = 2, waitTime = "0")
		String slot() {
			return "slot";
		}

	}

}
