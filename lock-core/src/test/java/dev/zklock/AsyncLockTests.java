package dev.zklock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Locks kept beyond the call: until an asynchronous result completes, and for a minimum
 * hold time.
 */
class AsyncLockTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static LockTemplate template;

	private static ZooKeeperLockRegistry otherProcess;

	@BeforeAll
	static void connect() throws Exception {
		// The longest session the server allows: holds here last up to 8 s, and a busy
		// machine must not end them by stalling the client past a short session
		template = new LockTemplate(new ZooKeeperLockRegistry(zookeeper.newClient(10_000), "/locks"),
				Duration.ofSeconds(5));
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	@Test
	void lockIsKeptUntilTheResultCompletesAndReleasedBeforeTheCallerSeesIt() throws Exception {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = template.executeAsync(LockRequest.exclusive("async"), (lock) -> work);
		assertThat(result).isNotDone();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> otherProcess.acquire("async", Duration.ofMillis(300)));
		CompletableFuture.runAsync(() -> work.complete("done"));
		assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo("done");
		otherProcess.acquire("async", Duration.ofSeconds(10)).release();
	}

	@Test
	void asyncLockBelongsToTheWorkNotToTheCallingThread() throws Exception {
		CompletableFuture<String> work = new CompletableFuture<>();
		CompletableFuture<String> result = template.executeAsync(LockRequest.exclusive("owned-by-work"),
				(lock) -> work);
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> template.execute("owned-by-work", Duration.ofMillis(200), (lock) -> "reentered"));
		work.complete("done");
		assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo("done");
	}

	@Test
	void failedResultReleasesTheLockAndKeepsItsFailure() throws Exception {
		IllegalStateException failure = new IllegalStateException("export failed");
		CompletableFuture<String> result = template.executeAsync(LockRequest.exclusive("failing-async"),
				(lock) -> CompletableFuture.supplyAsync(() -> {
					throw failure;
				}));
		assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> result.get(5, TimeUnit.SECONDS))
			.havingCause()
			.isSameAs(failure);
		otherProcess.acquire("failing-async", Duration.ofSeconds(10)).release();
	}

	@Test
	void workThatFailsToStartReleasesTheLockAtOnce() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> template.executeAsync(LockRequest.exclusive("not-started"), (lock) -> {
				throw new IllegalArgumentException("bad input");
			}));
		otherProcess.acquire("not-started", Duration.ofSeconds(10)).release();
	}

	@Test
	void minimumHoldTimeKeepsTheLockAfterQuickWork() throws Exception {
		// long enough that a busy machine still tries the other process within it
		Duration holdAtLeast = Duration.ofSeconds(8);
		long start = System.nanoTime();
		String result = template.execute(LockRequest.exclusive("nightly").withHoldAtLeast(holdAtLeast),
				(lock) -> "ran");
		assertThat(result).isEqualTo("ran");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the call returned before the hold ended")
			.isLessThan(holdAtLeast);
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> otherProcess.acquire("nightly", Duration.ofMillis(200)));
		otherProcess.acquire("nightly", holdAtLeast.plusSeconds(20)).release();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(holdAtLeast);
	}

	@Test
	void nestedCallOnTheSameKeyReEntersALockWithAMinimumHoldTime() {
		long[] tokens = new long[2];
		String result = template.execute(LockRequest.exclusive("nested-minimum").withHoldAtLeast(Duration.ofSeconds(1)),
				(outer) -> {
					tokens[0] = outer.fencingToken();
					return template.execute("nested-minimum", Duration.ofSeconds(5), (inner) -> {
						tokens[1] = inner.fencingToken();
						return "nested";
					});
				});
		assertThat(result).isEqualTo("nested");
		assertThat(tokens[1]).isEqualTo(tokens[0]);
	}

	@Test
	void threadDoneWithALockWithAMinimumHoldTimeWaitsForItLikeAnyCaller() {
		// long enough that a busy machine still tries again within it
		long first = template.execute(LockRequest.exclusive("minimum-again").withHoldAtLeast(Duration.ofSeconds(5)),
				LockHandle::fencingToken);
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> template.execute("minimum-again", Duration.ZERO, (lock) -> "re-entered"));
		long next = template.execute("minimum-again", Duration.ofSeconds(30), LockHandle::fencingToken);
		assertThat(next).isGreaterThan(first);
	}

	@Test
	void minimumHoldTimeTooLongToCountInNanosecondsKeepsTheLock() {
		String result = template.execute(
				LockRequest.exclusive("kept-for-ever").withHoldAtLeast(Duration.ofSeconds(Long.MAX_VALUE)),
				(lock) -> "ran");
		assertThat(result).isEqualTo("ran");
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> otherProcess.acquire("kept-for-ever", Duration.ofMillis(200)));
	}

	@Test
	void minimumHoldTimeShorterThanTheWorkChangesNothing() {
		template.execute(LockRequest.exclusive("slow").withHoldAtLeast(Duration.ofMillis(50)), (lock) -> {
			Thread.sleep(100);
			return null;
		});
		otherProcess.acquire("slow", Duration.ofSeconds(10)).release();
	}

}
