package dev.zklock.zookeeper;

import java.time.Duration;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.testsupport.ContainerNodes;
import dev.zklock.testsupport.ZooKeeperOperations;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Lock cohorting: a released lock passes to a waiting thread of the same process with no
 * ZooKeeper round trip, within the {@link HandOffPolicy}'s bounds, and keeps every
 * guarantee of a lock taken through ZooKeeper.
 */
class LockHandOffTests extends AbstractLockHandOffTests {

	@Test
	void waitingThreadTakesTheReleasedLockOverWithoutZooKeeper() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 64, Duration.ofMinutes(1)));
		HeldByThread first = HeldByThread.start(this.threads, registry, "hot", LockType.EXCLUSIVE);
		Future<AcquiredLock> second = this.threads.submit(() -> registry.acquire("hot", LONG_WAIT));
		await().until(() -> registry.waitingLocks().size() == 1);
		ZooKeeperOperations operations = ZooKeeperOperations.record(this.client, "/locks");
		first.release();
		AcquiredLock taken = second.get(10, TimeUnit.SECONDS);
		assertThat(operations.drain()).isEmpty();
		assertThat(taken.fencingToken()).isGreaterThan(first.lock.fencingToken());
		assertThat(taken.isValid()).isTrue();
		assertThat(first.lock.isValid()).isFalse();
		assertThat(this.client.getChildren().forPath(registry.pathOf("hot"))).hasSize(1);
		ZooKeeperLockRegistry other = registry(HandOffPolicy.defaults(), this.zookeeper.newClient());
		assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> other.acquire("hot", Duration.ZERO));
		this.threads.submit(taken::release).get();
		other.acquire("hot", Duration.ofSeconds(10)).release();
		assertThat(registry.keysInUse()).isZero();
	}

	/**
	 * A doubt raised before the lock was taken, here a pause of the process while it held
	 * no lock, keeps no later hand-off from passing the lock on without ZooKeeper: only a
	 * doubt since the holder's check does. Kills PIT's survivor "replaced long return
	 * with 0" in {@code LockLossDetector.doubts}.
	 */
	@Test
	void doubtRaisedBeforeTheLockWasTakenKeepsNoLaterHandOffFromPassingItOn() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 64, Duration.ofMinutes(1)));
		registry.lossDetector()
			.pauseDetected(ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS * 3 / 4,
					ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS);
		HeldByThread first = HeldByThread.start(this.threads, registry, "warm", LockType.EXCLUSIVE);
		Future<AcquiredLock> second = this.threads.submit(() -> registry.acquire("warm", LONG_WAIT));
		await().until(() -> registry.waitingLocks().size() == 1);
		ZooKeeperOperations operations = ZooKeeperOperations.record(this.client, "/locks");
		first.release();
		AcquiredLock taken = second.get(10, TimeUnit.SECONDS);
		assertThat(operations.drain()).as("requests to ZooKeeper").isEmpty();
		assertThat(taken.isValid()).isTrue();
		this.threads.submit(taken::release).get();
	}

	@Test
	void lateWriteOfAnEarlierHolderIsRefusedOnceALaterHolderWroteWithTheUsualRule() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 64, Duration.ofMinutes(1)));
		ZooKeeperLockRegistry otherProcess = registry(HandOffPolicy.defaults(), this.zookeeper.newClient());
		FencedCounter store = new FencedCounter();
		HeldByThread first = HeldByThread.start(this.threads, registry, "account", LockType.EXCLUSIVE);
		HeldByThread second = HeldByThread.startWaiting(this.threads, registry, "account", LockType.EXCLUSIVE);
		await().until(() -> registry.waitingLocks().size() == 1);
		long firstToken = first.lock.fencingToken();
		first.release();
		second.awaitHeld();
		assertThat(this.client.getChildren().forPath(registry.pathOf("account"))).as("the node was handed over")
			.hasSize(1);
		assertThat(store.write(second.lock.fencingToken())).isTrue();
		assertThat(store.write(firstToken)).as("the first holder's late write, sent before its release").isFalse();
		long secondToken = second.lock.fencingToken();
		second.release();
		AcquiredLock third = otherProcess.acquire("account", LONG_WAIT);
		assertThat(store.write(third.fencingToken())).isTrue();
		assertThat(store.write(secondToken)).as("the second holder's late write").isFalse();
		third.release();
	}

	/**
	 * Storage that accepts a write whose token is at least the highest it has accepted.
	 */
	private static final class FencedCounter {

		private long highest = Long.MIN_VALUE;

		synchronized boolean write(long token) {
			if (token < this.highest) {
				return false;
			}
			this.highest = token;
			return true;
		}

	}

	@Test
	void timeBudgetTooLongToCountInNanosecondsPutsNoTimeBound() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 64, ChronoUnit.FOREVER.getDuration()));
		HeldByThread first = HeldByThread.start(this.threads, registry, "forever", LockType.EXCLUSIVE);
		Future<AcquiredLock> second = this.threads.submit(() -> registry.acquire("forever", LONG_WAIT));
		await().until(() -> registry.waitingLocks().size() == 1);
		first.release();
		AcquiredLock taken = second.get(10, TimeUnit.SECONDS);
		assertThat(taken.fencingToken()).isGreaterThan(first.lock.fencingToken());
		this.threads.submit(taken::release).get();
		registry(HandOffPolicy.defaults(), this.zookeeper.newClient()).acquire("forever", Duration.ofSeconds(10))
			.release();
		assertThat(registry.keysInUse()).isZero();
	}

	@Test
	void withHandOffsOffEveryThreadQueuesInZooKeeper() throws Exception {
		ZooKeeperLockRegistry registry = registry(HandOffPolicy.disabled());
		HeldByThread first = HeldByThread.start(this.threads, registry, "hot", LockType.EXCLUSIVE);
		Future<AcquiredLock> second = this.threads.submit(() -> registry.acquire("hot", LONG_WAIT));
		await().until(() -> this.client.getChildren().forPath(registry.pathOf("hot")).size() == 2);
		first.release();
		AcquiredLock taken = second.get(10, TimeUnit.SECONDS);
		assertThat(taken.fencingToken()).isGreaterThan(first.lock.fencingToken());
		this.threads.submit(taken::release).get();
	}

	@Test
	void readersOfOneProcessShareOneNodeAndAWriterOfAnotherGetsInAfterThem() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 64, Duration.ofMinutes(1)));
		ZooKeeperLockRegistry other = registry(HandOffPolicy.defaults(), this.zookeeper.newClient());
		HeldByThread firstReader = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		HeldByThread secondReader = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		assertThat(secondReader.lock.fencingToken()).isGreaterThan(firstReader.lock.fencingToken());
		assertThat(this.client.getChildren().forPath(registry.pathOf("doc"))).singleElement()
			.asString()
			.contains("read-");
		CompletableFuture<AcquiredLock> writer = CompletableFuture
			.supplyAsync(() -> other.acquire("doc", LockType.WRITE, 1, LONG_WAIT), this.threads);
		List<String> queue = await().until(() -> this.client.getChildren().forPath(registry.pathOf("doc")),
				(nodes) -> nodes.size() == 2);
		firstReader.release();
		// a release sends its deletion before it returns, and ZooKeeper answers a
		// session's requests in order: this read sees the readers' node deleted if the
		// release deleted it
		assertThat(this.client.getChildren().forPath(registry.pathOf("doc"))).as("the queue after the first release")
			.containsExactlyInAnyOrderElementsOf(queue);
		assertThat(writer).isNotDone();
		secondReader.release();
		AcquiredLock written = writer.get(20, TimeUnit.SECONDS);
		assertThat(written.fencingToken()).isGreaterThan(secondReader.lock.fencingToken());
		this.threads.submit(written::release).get();
	}

	@Test
	void reentrantAcquisitionsOfAThreadThatTookTheLockOverShareItsHold() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 64, Duration.ofMinutes(1)));
		HeldByThread first = HeldByThread.start(this.threads, registry, "hot", LockType.EXCLUSIVE);
		Future<List<Long>> nested = this.threads.submit(() -> {
			AcquiredLock outer = registry.acquire("hot", LONG_WAIT);
			AcquiredLock inner = registry.acquire("hot", Duration.ofSeconds(10));
			List<Long> tokens = List.of(outer.fencingToken(), inner.fencingToken());
			inner.release();
			boolean stillValid = outer.isValid();
			outer.release();
			return stillValid ? tokens : List.of();
		});
		await().until(() -> registry.waitingLocks().size() == 1);
		first.release();
		assertThat(nested.get(10, TimeUnit.SECONDS)).containsOnly(first.lock.fencingToken() + 1).hasSize(2);
	}

	@Test
	void manyThreadsOfTwoProcessesOnFewKeysLoseNoUpdateAndLeaveNothingBehind() throws Exception {
		HandOffPolicy shortCohorts = new HandOffPolicy(true, 3, Duration.ofMinutes(1));
		List<ZooKeeperLockRegistry> processes = List.of(registry(shortCohorts),
				registry(shortCohorts, this.zookeeper.newClient()));
		int[] counters = new int[4];
		List<Future<?>> contenders = new ArrayList<>();
		for (int thread = 0; thread < 12; thread++) {
			ZooKeeperLockRegistry registry = processes.get(thread % 2);
			contenders.add(this.threads.submit(() -> {
				for (int cycle = 0; cycle < 48; cycle++) {
					int key = cycle % counters.length;
					AcquiredLock lock = registry.acquire("counter-" + key, LONG_WAIT);
					int seen = counters[key];
					Thread.yield();
					counters[key] = seen + 1;
					lock.release();
				}
				return null;
			}));
		}
		for (Future<?> contender : contenders) {
			contender.get(60, TimeUnit.SECONDS);
		}
		assertThat(counters).containsOnly(12 * 48 / counters.length);
		for (ZooKeeperLockRegistry registry : processes) {
			assertThat(registry.keysInUse()).isZero();
			assertThat(registry.heldLocks()).isEmpty();
			assertThat(registry.waitingLocks()).isEmpty();
		}
		for (int key = 0; key < counters.length; key++) {
			String keyPath = processes.get(0).pathOf("counter-" + key);
			// the other process's last release may not be applied yet
			await().untilAsserted(() -> assertThat(ContainerNodes.childrenOf(this.client, keyPath)).isEmpty());
		}
	}

}
