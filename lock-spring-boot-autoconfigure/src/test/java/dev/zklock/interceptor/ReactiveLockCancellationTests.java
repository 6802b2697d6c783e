package dev.zklock.interceptor;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import dev.zklock.DistributedLock;
import dev.zklock.LockTimeoutException;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * A reactive method keeps its lock until its result terminates or is cancelled, and a
 * method that returns no result at all gets an error that names it.
 */
class ReactiveLockCancellationTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static ZooKeeperLockRegistry otherProcess;

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withBean(Feeds.class);

	@BeforeAll
	static void connectOtherProcess() throws Exception {
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	@Test
	void cancelledMonoReleasesItsLock() {
		this.contextRunner.run((context) -> {
			Feeds feeds = context.getBean(Feeds.class);
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			Disposable subscription = feeds.waitForEvent().subscribe();
			await().atMost(Duration.ofSeconds(10)).until(() -> heldElsewhere("event"));
			subscription.dispose();
			await().atMost(Duration.ofSeconds(10))
				.alias("lock released after the Mono was cancelled")
				.until(() -> registry.keysInUse() == 0);
		});
	}

	@Test
	void monoThatTimesOutDownstreamReleasesItsLock() {
		this.contextRunner.run((context) -> {
			Feeds feeds = context.getBean(Feeds.class);
			assertThatThrownBy(() -> feeds.waitForOtherEvent().timeout(Duration.ofMillis(500)).block())
				.hasCauseInstanceOf(TimeoutException.class);
			assertThatNoException().as("another process can lock the key after the timeout")
				.isThrownBy(() -> otherProcess.acquire("other-event", Duration.ofSeconds(5)).release());
		});
	}

	@Test
	void monoMethodReturningNullGetsAClearErrorNotANullPointerException() {
		this.contextRunner.run((context) -> {
			Feeds feeds = context.getBean(Feeds.class);
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			assertThatIllegalStateException().isThrownBy(() -> feeds.nullMono().block(Duration.ofSeconds(10)))
				.withMessageContaining("nullMono()")
				.withMessageContaining("returned null");
			assertThat(registry.keysInUse()).isZero();
		});
	}

	@Test
	void fluxMethodReturningNullGetsAClearErrorNotANullPointerException() {
		this.contextRunner.run((context) -> {
			Feeds feeds = context.getBean(Feeds.class);
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			assertThatIllegalStateException().isThrownBy(() -> feeds.nullFlux().blockLast(Duration.ofSeconds(10)))
				.withMessageContaining("nullFlux()")
				.withMessageContaining("returned null");
			assertThat(registry.keysInUse()).isZero();
		});
	}

	private static boolean heldElsewhere(String key) {
		try {
			otherProcess.acquire(key, Duration.ZERO).release();
			return false;
		}
		catch (LockTimeoutException ex) {
			return true;
		}
	}

	static class Feeds {

		@DistributedLock(key = "'event'")
		Mono<String> waitForEvent() {
			return Mono.never();
		}

		@DistributedLock(key = "'other-event'")
		Mono<String> waitForOtherEvent() {
			return Mono.never();
		}

		@DistributedLock(key = "'null-mono'")
		Mono<String> nullMono() {
			return null;
		}

		@DistributedLock(key = "'null-flux'")
		Flux<String> nullFlux() {
			return null;
		}

	}

}
