package dev.zklock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.testsupport.BusyMachine;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

/**
 * Locks of several keys taken together: in one order everywhere, all or none.
 */
class MultiKeyLockTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static LockTemplate template;

	private static LockTemplate otherProcess;

	private static ZooKeeperLockRegistry otherRegistry;

	@BeforeAll
	static void connect() throws Exception {
		template = new LockTemplate(new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks"), Duration.ofSeconds(5));
		otherRegistry = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		otherProcess = new LockTemplate(otherRegistry, Duration.ofSeconds(5));
	}

	@Test
	void oppositeOrdersInTwoProcessesNeverDeadlock() throws Exception {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(4);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int t = 0; t < 4; t++) {
				LockTemplate process = (t % 2 == 0) ? template : otherProcess;
				List<String> keys = (t % 2 == 0) ? List.of("account:a", "account:b")
						: List.of("account:b", "account:a");
				work.add(threads.submit(() -> {
					for (int i = 0; i < 20; i++) {
						process.execute(keys, LockType.EXCLUSIVE, Duration.ofSeconds(30), (lock) -> {
							if (inside.incrementAndGet() > 1) {
								overlaps.incrementAndGet();
							}
							inside.decrementAndGet();
							return null;
						});
					}
					return null;
				}));
			}
			for (Future<?> future : work) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(overlaps).hasValue(0);
	}

	@Test
	void locksAreAcquiredInOneOrderAndHandedOverTogether() {
		MultiKeyLock held = template.execute(List.of("z", "a", "m", "a"), LockType.EXCLUSIVE, Duration.ofSeconds(5),
				(lock) -> {
					assertThat(LockHandle.current()).isSameAs(lock);
					return (MultiKeyLock) lock;
				});
		assertThat(held.key()).isEqualTo("a,m,z");
		assertThat(held.locks()).hasSize(3);
		assertThat(held.fencingToken()).isEqualTo(held.locks().get(2).fencingToken());
		assertThat(held.isValid()).isFalse();
	}

	@Test
	void timeoutOfALaterKeyKeepsTheLossOfAnEarlierKeysLock() throws Exception {
		CuratorFramework client = zookeeper.newClient();
		ZooKeeperLockRegistry losing = new ZooKeeperLockRegistry(client, "/locks");
		AcquiredLock heldElsewhere = otherRegistry.acquire("lost:b", Duration.ofSeconds(10));
		try {
			CompletableFuture<LockTimeoutException> call = CompletableFuture
				.supplyAsync(() -> catchThrowableOfType(LockTimeoutException.class,
						() -> new LockTemplate(losing, Duration.ofSeconds(5)).execute(List.of("lost:a", "lost:b"),
								LockType.EXCLUSIVE, Duration.ofSeconds(3), (lock) -> "never")));
			await().until(() -> losing.waitingLocks().stream().anyMatch((lock) -> lock.key().equals("lost:b")));
			client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
			LockTimeoutException timeout = call.get(20, TimeUnit.SECONDS);
			assertThat(timeout.getKey()).isEqualTo("lost:b");
			assertThat(timeout.getSuppressed()).singleElement()
				.isInstanceOfSatisfying(LockLostException.class,
						(lost) -> assertThat(lost.getKey()).isEqualTo("lost:a"));
		}
		finally {
			heldElsewhere.release();
		}
	}

	@Test
	void allOrNothingWithinOneWaitTime() {
		AcquiredLock heldElsewhere = otherRegistry.acquire("pair:b", Duration.ofSeconds(10));
		try {
			Duration waitTime = Duration.ofMillis(400);
			long start = System.nanoTime();
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> template.execute(List.of("pair:a", "pair:b"), LockType.EXCLUSIVE, waitTime,
						(lock) -> "never"))
				.withMessageContaining("'pair:b'")
				.withMessageContaining("400ms");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(waitTime.plus(BusyMachine.MARGIN));
			otherRegistry.acquire("pair:a", Duration.ofSeconds(10)).release();
		}
		finally {
			heldElsewhere.release();
		}
	}

	@Test
	void annotatedTransferLocksBothAccountsFromOneExpression() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
			.withPropertyValues("distributed-lock.zookeeper.connect-string=" + zookeeper.connectString(),
					"distributed-lock.startup.connection-wait=60s")
			.withBean(TransferService.class)
			.run((context) -> {
				TransferService transfers = context.getBean(TransferService.class);
				assertThat(transfers.transfer("b", "a")).isEqualTo("account:a,account:b");
				AcquiredLock held = otherRegistry.acquire("account:a", Duration.ofSeconds(10));
				try {
					assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> transfers.transfer("b", "a"))
						.withMessageContaining("'account:a'");
				}
				finally {
					held.release();
				}
			});
	}

	static class TransferService {

		@DistributedLock(key = "{'account:' + #from, 'account:' + #to}", waitTime = "200ms")
		String transfer(String from, String to) {
			return LockHandle.current().key();
		}

	}

}
