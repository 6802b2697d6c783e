package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.testsupport.ZooKeeperOperations;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The bounds of a hand-off turn apply while another process queues behind the turn's
 * node, so that it gets its turn; with none behind, the node passes from thread to thread
 * until the room of its fencing tokens runs out.
 */
class HandOffBoundsTests {

	private static final Duration LONG_WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private CuratorFramework client;

	private ZooKeeperOperations operations;

	@BeforeEach
	void connect() throws Exception {
		this.client = this.zookeeper.newClient(10_000);
		this.operations = ZooKeeperOperations.record(this.client, "/locks");
	}

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void turnWithNoOtherProcessQueuedPassesOnPastItsBounds() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 2, Duration.ofMinutes(1)));
		Holder first = Holder.start(this.threads, registry, "hot");
		List<Long> tokens = queueWaiters(registry, "hot", 6);
		first.release();
		await().until(() -> tokens.size() == 6);
		assertThat(tokens).isSorted()
			.doesNotHaveDuplicates()
			.allSatisfy((token) -> assertThat(nodeOf(token)).isEqualTo(nodeOf(first.token)));
	}

	@Test
	void turnStopsAtItsCountWhenAnotherProcessQueuedBehindIt() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 2, Duration.ofMinutes(1)));
		Holder first = Holder.start(this.threads, registry, "hot");
		Future<Long> othersToken = queueInAnotherProcess("hot");
		List<Long> tokens = queueWaiters(registry, "hot", 6);
		first.release();
		long other = othersToken.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		await().until(() -> tokens.size() == 6);
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
		assertThat(tokens).filteredOn((token) -> nodeOf(token) == nodeOf(first.token))
			.hasSize(2)
			.allSatisfy((token) -> assertThat(token).isLessThan(other));
		assertThat(tokens).filteredOn((token) -> token > other).hasSize(4);
	}

	/**
	 * Another process that queues behind the turn's node after ZooKeeper answered that
	 * none did still stops the turn at its count: once one queues, it does until the node
	 * is released ({@code othersQueued} takes the watch's later answer over the first).
	 */
	@Test
	void turnStopsAtItsCountWhenAnotherProcessQueuesBehindItLater() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 2, Duration.ofMinutes(1)));
		Holder first = Holder.start(this.threads, registry, "hot");
		List<Long> tokens = queueWaiters(registry, "hot", 6);
		Future<Long> othersToken = queueInAnotherProcess("hot");
		awaitCallbacksOfEarlierReplies();
		first.release();
		long other = othersToken.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		await().until(() -> tokens.size() == 6);
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
		assertThat(tokens).filteredOn((token) -> nodeOf(token) == nodeOf(first.token))
			.hasSize(2)
			.allSatisfy((token) -> assertThat(token).isLessThan(other));
		assertThat(tokens).filteredOn((token) -> token > other).hasSize(4);
	}

	/**
	 * A node that a leader took while threads of this process waited for it passes on
	 * past the turn's bounds when no other process queues behind it: the leader asks
	 * ZooKeeper who queues once it holds the node ({@code take}'s {@code watchBehind}
	 * after the hold began), as the waiters could not while no node was held.
	 */
	@Test
	void turnLedWhileThreadsWaitedPassesOnPastItsBoundsWhenNoOtherProcessQueued() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 1, Duration.ofMinutes(1)));
		ZooKeeperLockRegistry other = registry(HandOffPolicy.defaults(), this.zookeeper.newClient());
		AcquiredLock othersLock = other.acquire("led", LONG_WAIT);
		Holder leader = Holder.startWaiting(this.threads, registry, "led");
		await().until(() -> this.client.getChildren().forPath(registry.pathOf("led")).size() == 2);
		List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
		List<Thread> waiters = Collections.synchronizedList(new ArrayList<>());
		for (int i = 0; i < 3; i++) {
			this.threads.submit(() -> {
				waiters.add(Thread.currentThread());
				AcquiredLock lock = registry.acquire("led", LONG_WAIT);
				tokens.add(lock.fencingToken());
				lock.release();
				return null;
			});
		}
		await().alias("the waiters wait in this process for the leader's node")
			.until(() -> waiters.size() == 3 && waiters.stream().allMatch(HandOffBoundsTests::waitsInTheKeysState));
		othersLock.release();
		leader.awaitHeld();
		awaitCallbacksOfEarlierReplies();
		leader.release();
		await().until(() -> tokens.size() == 3);
		assertThat(tokens).isSorted()
			.doesNotHaveDuplicates()
			.allSatisfy((token) -> assertThat(nodeOf(token)).isEqualTo(nodeOf(leader.token)));
	}

	@Test
	void turnPastItsTimeBudgetHandsOffNoMoreWhenAnotherProcessQueuedBehindIt() throws Exception {
		Duration budget = Duration.ofMillis(500);
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 1000, budget));
		Holder first = Holder.start(this.threads, registry, "slow");
		Future<Long> othersToken = queueInAnotherProcess("slow");
		List<Long> tokens = queueWaiters(registry, "slow", 3);
		await().alias("the time budget has passed since the first holder's node was acquired")
			.until(() -> System.nanoTime() - first.heldSince >= budget.toNanos());
		first.release();
		long other = othersToken.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		await().until(() -> tokens.size() == 3);
		assertThat(tokens).as("the waiters' tokens, all after the other process's %d", other)
			.isSorted()
			.doesNotHaveDuplicates()
			.allSatisfy((token) -> assertThat(token).isGreaterThan(other));
	}

	@Test
	void turnThatWouldOutliveTheRoomOfItsTokensQueuesAFreshNode() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 64, Duration.ofMillis(50)));
		int holds = LockNode.MAX_HAND_OFFS + 1000;
		List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
		List<Future<?>> contenders = new ArrayList<>();
		for (int thread = 0; thread < 4; thread++) {
			contenders.add(this.threads.submit(() -> {
				while (tokens.size() < holds) {
					AcquiredLock lock = registry.acquire("long-turn", LONG_WAIT);
					tokens.add(lock.fencingToken());
					// leave only once another thread waits in the cohort, so that every
					// release is a hand-off
					while (!lock.lockKey().hasWaiters(LockNodeKind.EXCLUSIVE) && tokens.size() < holds) {
						Thread.onSpinWait();
					}
					lock.release();
				}
				return null;
			}));
		}
		for (Future<?> contender : contenders) {
			contender.get(2, TimeUnit.MINUTES);
		}
		assertThat(tokens).isSorted().doesNotHaveDuplicates();
		int fullTurn = tokens.indexOf(tokens.stream()
			.filter((token) -> handOffOf(token) == LockNode.MAX_HAND_OFFS)
			.findFirst()
			.orElseThrow(() -> new AssertionError("no turn reached the room of its tokens")));
		assertThat(handOffOf(tokens.get(fullTurn + 1))).isZero();
		assertThat(nodeOf(tokens.get(fullTurn + 1))).isGreaterThan(nodeOf(tokens.get(fullTurn)));
	}

	/**
	 * Starts threads that each take the lock once and release it at once, and waits until
	 * they all wait in this process and the cohort knows whether another node queues
	 * behind its own.
	 */
	private List<Long> queueWaiters(ZooKeeperLockRegistry registry, String key, int count) throws Exception {
		List<Long> tokens = Collections.synchronizedList(new ArrayList<>());
		this.operations.drain();
		for (int i = 0; i < count; i++) {
			this.threads.submit(() -> {
				AcquiredLock lock = registry.acquire(key, LONG_WAIT);
				tokens.add(lock.fencingToken());
				lock.release();
				return null;
			});
		}
		await().until(() -> registry.waitingLocks().size() == count);
		assertThat(this.operations.drain(1)).containsExactly("GetChildrenBuilderImpl-Background");
		awaitCallbacksOfEarlierReplies();
		return tokens;
	}

	/**
	 * Waits until the client has run the callbacks of the replies it received so far:
	 * Curator records a background read when its reply comes, just before the callback
	 * that tells the cohort who queues. The client runs its callbacks one after another,
	 * in the order of its replies.
	 */
	private void awaitCallbacksOfEarlierReplies() throws Exception {
		CompletableFuture<Void> callbackRan = new CompletableFuture<>();
		this.client.sync().inBackground((client, event) -> callbackRan.complete(null)).forPath("/locks");
		callbackRan.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
	}

	private Future<Long> queueInAnotherProcess(String key) throws Exception {
		ZooKeeperLockRegistry other = registry(HandOffPolicy.defaults(), this.zookeeper.newClient());
		Future<Long> token = this.threads.submit(() -> {
			AcquiredLock lock = other.acquire(key, LONG_WAIT);
			lock.release();
			return lock.fencingToken();
		});
		await().until(() -> this.client.getChildren().forPath(other.pathOf(key)).size() == 2);
		return token;
	}

	private ZooKeeperLockRegistry registry(HandOffPolicy policy) {
		return registry(policy, this.client);
	}

	private static ZooKeeperLockRegistry registry(HandOffPolicy policy, CuratorFramework client) {
		return new ZooKeeperLockRegistry(client, "/locks", LostLockPolicy.defaults(), policy);
	}

	/** Whether a thread waits for its turn in a key's state. */
	private static boolean waitsInTheKeysState(Thread thread) {
		return thread.getState() == Thread.State.TIMED_WAITING && Arrays.stream(thread.getStackTrace())
			.anyMatch((frame) -> frame.getClassName().equals(LockKey.class.getName()));
	}

	private static long nodeOf(long token) {
		return token >> LockNode.HAND_OFF_BITS;
	}

	private static int handOffOf(long token) {
		return (int) (token & LockNode.MAX_HAND_OFFS);
	}

	/**
	 * A thread that holds a lock until told to release it.
	 */
	private static final class Holder {

		private final CountDownLatch releaseNow = new CountDownLatch(1);

		private volatile long token;

		/**
		 * When the lock was found held, on the {@link System#nanoTime()} scale: no
		 * earlier than the acquisition of its node.
		 */
		private volatile long heldSince;

		private final CountDownLatch held = new CountDownLatch(1);

		static Holder start(ExecutorService threads, ZooKeeperLockRegistry registry, String key) {
			Holder holder = startWaiting(threads, registry, key);
			holder.awaitHeld();
			return holder;
		}

		static Holder startWaiting(ExecutorService threads, ZooKeeperLockRegistry registry, String key) {
			Holder holder = new Holder();
			threads.submit(() -> {
				AcquiredLock lock = registry.acquire(key, LONG_WAIT);
				holder.heldSince = System.nanoTime();
				holder.token = lock.fencingToken();
				holder.held.countDown();
				holder.releaseNow.await();
				lock.release();
				return null;
			});
			return holder;
		}

		void awaitHeld() {
			await().until(() -> this.held.getCount() == 0);
		}

		void release() {
			this.releaseNow.countDown();
		}

	}

}
