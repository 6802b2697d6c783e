package dev.zklock.jdbc;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockLostException;
import dev.zklock.StaleFencingTokenException;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A holder whose session ends while it is paused loses the lock to the other application:
 * its late transaction is refused if the next holder checked first, and holds the next
 * holder back until it commits if it checked before its pause.
 */
class PausedFencedHolderTests extends AbstractFencedHoldersTests {

	/**
	 * Threads of their own for the calls that block: on Java 25,
	 * {@code CompletableFuture}'s default executor is the common pool even with one
	 * thread, where a blocked call keeps the next from running.
	 */
	private final ExecutorService calls = Executors.newCachedThreadPool();

	@AfterEach
	void stopCalls() {
		this.calls.shutdownNow();
	}

	@Test
	void pausedHolderWhoseLockPassedOnIsRefusedAndRolledBackWhileTheNextHolderCommits() {
		this.applications.run((paused) -> this.applications.run((next) -> {
			CountDownLatch resume = new CountDownLatch(1);
			CompletableFuture<Long> late = pauseAndEndSession(paused, Counter::incrementAfterAPause, resume);
			long nextToken = counter(next).incrementThroughTheTemplate("next holder");
			resume.countDown();
			assertThat(late).failsWithin(AWAIT)
				.withThrowableThat()
				.havingCause()
				.isInstanceOfSatisfying(StaleFencingTokenException.class, (ex) -> {
					assertThat(ex.getKey()).isEqualTo("counter");
					assertThat(ex.getFencingToken()).isLessThan(nextToken);
					assertThat(ex.getNewerFencingToken()).hasValue(nextToken);
					assertThat(ex.getSuppressed()).singleElement().isInstanceOf(LockLostException.class);
				});
			assertThat(ledger()).containsExactly("next holder");
			assertThat(total()).isOne();
			assertThat(this.jdbc.queryForObject("SELECT fencing_token FROM zklock_fence", Long.class))
				.isEqualTo(nextToken);
		}));
	}

	@Test
	void pausedHolderThatCheckedBeforeItsPauseHoldsTheNextHolderBackUntilItCommits() {
		this.applications.run((paused) -> this.applications.run((next) -> {
			CountDownLatch resume = new CountDownLatch(1);
			CompletableFuture<Long> late = pauseAndEndSession(paused, Counter::checkThenIncrementAfterAPause, resume);
			CompletableFuture<Long> nextHolder = CompletableFuture
				.supplyAsync(() -> counter(next).incrementThroughTheTemplate("next holder"), this.calls);
			await().atMost(AWAIT).until(() -> this.database.waitingStatements(this.jdbc) == 1);
			assertThat(nextHolder).isNotDone();
			resume.countDown();
			assertThat(late).failsWithin(AWAIT).withThrowableThat().havingCause().isInstanceOf(LockLostException.class);
			assertThat(nextHolder).succeedsWithin(AWAIT);
			assertThat(ledger()).containsExactlyInAnyOrder("paused holder", "next holder");
			assertThat(total()).isEqualTo(2);
		}));
	}

	/**
	 * Calls the application's counter on another thread, waits until the call pauses, and
	 * ends the application's ZooKeeper session, so that the paused call's lock passes on.
	 * @return the call, which goes on once {@code resume} opens
	 */
	private CompletableFuture<Long> pauseAndEndSession(ApplicationContext application, PausingCall call,
			CountDownLatch resume) throws Exception {
		CountDownLatch pausing = new CountDownLatch(1);
		CompletableFuture<Long> result = CompletableFuture
			.supplyAsync(() -> call.run(counter(application), pausing, resume), this.calls);
		assertThat(pausing.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		application.getBean(CuratorFramework.class)
			.getZookeeperClient()
			.getZooKeeper()
			.getTestable()
			.injectSessionExpiration();
		return result;
	}

	/**
	 * A call of the counter that opens {@code pausing} and waits for {@code resume}.
	 */
	@FunctionalInterface
	interface PausingCall {

		long run(Counter counter, CountDownLatch pausing, CountDownLatch resume);

	}

}
