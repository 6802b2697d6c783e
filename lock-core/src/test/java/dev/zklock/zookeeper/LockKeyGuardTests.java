package dev.zklock.zookeeper;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import java.util.concurrent.locks.ReentrantLock;

import dev.zklock.LockTimeoutException;
import dev.zklock.testsupport.ContainerNodes;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Guards of {@link LockKey} and {@link LockKeyDriver} that mutation testing found
 * untested (CONTRIBUTING.md, "Mutation testing"): each test plants the interleaving that
 * the guard is for, on a real ZooKeeper server, or drives the key's state directly where
 * the guard needs no server, and fails when the guard is removed. Where two events must
 * reach a waiting thread before it runs again, the test takes them while it holds the
 * key's own lock, so the waiting thread sees both or neither (an interrupted waiter is
 * let wake first, until it waits for that lock: one still parked when its turn comes
 * takes the turn and keeps the interrupt without seeing it). The registry's lost-lock
 * policy makes a doubt uncertain rather than lost, so that a doubted node can be
 * confirmed.
 */
class LockKeyGuardTests {

	private static final Duration LONG_WAIT = Duration.ofSeconds(30);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final LockKey lockKey = new LockKey("hot", new HandOffPolicy(true, 64, Duration.ofMinutes(1)));

	private CuratorFramework client;

	private ZooKeeperLockRegistry registry;

	private LockLossDetector detector;

	@BeforeEach
	void connect() throws Exception {
		this.client = this.zookeeper.newClient();
		this.registry = new ZooKeeperLockRegistry(this.client, "/locks",
				new LostLockPolicy(LostLockPolicy.Trigger.LOST, EnumSet.of(LostLockPolicy.Action.RAISE)));
		this.detector = this.registry.lossDetector();
	}

	@AfterEach
	void stop() {
		this.threads.shutdownNow();
		this.registry.close();
	}

	/**
	 * A waiter interrupted after its turn came takes the node it was given, with its
	 * interrupt flag set; dropping the turn would leave the node held by nobody, and the
	 * key stuck in this process until its session ends.
	 */
	@Test
	void waiterInterruptedAfterItsTurnCameTakesTheNodeWithItsInterruptSet() throws Exception {
		LockKey.Hold first = take();
		AtomicBoolean interruptedWhenTaken = new AtomicBoolean();
		AtomicReference<Thread> successorThread = new AtomicReference<>();
		Future<LockKey.Hold> successor = this.threads.submit(() -> {
			successorThread.set(Thread.currentThread());
			LockKey.Hold hold = take();
			interruptedWhenTaken.set(Thread.currentThread().isInterrupted());
			return hold;
		});
		awaitWaiting(successorThread);
		whileKeyStateLocked(() -> {
			successorThread.get().interrupt();
			await().atMost(LONG_WAIT).until(() -> successorThread.get().getState() == Thread.State.WAITING);
			long checkedAt = this.detector.doubts();
			assertThat(this.detector.isHeld(first)).isTrue();
			assertThat(this.lockKey.exit(first)).isEqualTo(LockKey.Change.ENDED);
			this.detector.unregister(first);
			assertThat(this.lockKey.giveBack(first, true, checkedAt)).isNull();
		});
		LockKey.Hold second = successor.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(second.node()).isEqualTo(first.node());
		assertThat(second.fencingToken()).isEqualTo(first.fencingToken() + 1);
		assertThat(interruptedWhenTaken).isTrue();
	}

	/**
	 * A delayed release of a thread's last acquisition keeps the lock held, but no longer
	 * for the thread: its next acquisition queues for the lock like any other, rather
	 * than re-entering a hold that the delayed release ends under it.
	 */
	@Test
	void threadWhoseLastAcquisitionIsReleasedLaterNoLongerReentersItsHold() {
		Thread owner = new Thread(() -> {
		}, "owner");
		AcquiredLock held = this.registry.acquire("k", LockNodeKind.EXCLUSIVE, LONG_WAIT, owner);
		held.releaseAfter(Duration.ofHours(1));
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> this.registry.acquire("k", LockNodeKind.EXCLUSIVE, Duration.ZERO, owner));
	}

	/**
	 * A node once in doubt takes no more holders of this process, even after ZooKeeper
	 * confirmed the session and its holder releases it as held: the waiting thread queues
	 * a new node.
	 */
	@Test
	void nodeDoubtedWhileHeldPassesToNoOtherThreadEvenOnceConfirmed() throws Exception {
		LockKey.Hold first = take();
		AtomicReference<Thread> successorThread = new AtomicReference<>();
		Future<LockKey.Hold> successor = this.threads.submit(() -> {
			successorThread.set(Thread.currentThread());
			return take();
		});
		awaitWaiting(successorThread);
		this.detector.pauseDetected(ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS * 3 / 4,
				ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS);
		await().atMost(LONG_WAIT).until(() -> !first.isUncertain());
		long checkedAt = this.detector.doubts();
		assertThat(this.detector.isHeld(first)).isTrue();
		assertThat(this.lockKey.exit(first)).isEqualTo(LockKey.Change.ENDED);
		this.detector.unregister(first);
		LockNode released = this.lockKey.giveBack(first, true, checkedAt);
		assertThat(released).isEqualTo(first.node());
		this.client.delete().forPath(released.path());
		LockKey.Hold second = successor.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(second.node()).isNotEqualTo(first.node());
		assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
	}

	/**
	 * A lock declared lost after ZooKeeper showed its node's turn, but before its hold
	 * began, is not returned: the acquisition queues again and returns a hold that is not
	 * lost. The hold given up is no longer watched by the loss detector (the driver's
	 * {@code unregister} of a hold that did not begin), and its node is deleted.
	 */
	@Test
	void holdLostBeforeItBeganIsGivenUpAndTheLockTakenAgain() throws Exception {
		holdLostBeforeItBeganIsGivenUpAndTheLockTakenAgain(this.lockKey);
	}

	/**
	 * The same without hand-offs, where no cohort holds the node: {@code giveUp} returns
	 * it to be deleted, or the acquisition would queue again behind its own node.
	 */
	@Test
	void holdLostBeforeItBeganWithoutHandOffsIsGivenUpAndTheLockTakenAgain() throws Exception {
		holdLostBeforeItBeganIsGivenUpAndTheLockTakenAgain(new LockKey("hot", HandOffPolicy.disabled()));
	}

	private void holdLostBeforeItBeganIsGivenUpAndTheLockTakenAgain(LockKey key) throws Exception {
		ZooKeeperLockRegistry otherProcess = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		try {
			AcquiredLock other = otherProcess.acquire("hot", LONG_WAIT);
			AtomicReference<Thread> leaderThread = new AtomicReference<>();
			Future<LockKey.Hold> leader = this.threads.submit(() -> {
				leaderThread.set(Thread.currentThread());
				return take(key);
			});
			await().atMost(LONG_WAIT).until(() -> ContainerNodes.childrenOf(this.client, "/locks/hot").size() == 2);
			AtomicReference<LockKey.Hold> lost = new AtomicReference<>();
			whileKeyStateLocked(key, () -> {
				other.release();
				await().atMost(LONG_WAIT).until(() -> isIn(leaderThread.get(), "begin"));
				List<LockKey.Hold> holds = List.copyOf(this.detector.holds());
				assertThat(holds).hasSize(1);
				lost.set(holds.get(0));
				assertThat(lost.get().markLost("declared lost by the test")).isTrue();
			});
			LockKey.Hold taken = leader.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
			assertThat(taken.lossReason()).isNull();
			assertThat(taken.node()).isNotEqualTo(lost.get().node());
			assertThat(taken.fencingToken()).isGreaterThan(lost.get().fencingToken());
			assertThat(this.detector.holds()).containsExactly(taken);
			await().atMost(LONG_WAIT)
				.until(() -> ContainerNodes.childrenOf(this.client, "/locks/hot").equals(List.of(taken.node().name())));
		}
		finally {
			otherProcess.close();
		}
	}

	/**
	 * A leader whose wait time ran out in ZooKeeper's queue hands the lead to the thread
	 * of this process that waits behind it, which takes the lock once it is free.
	 */
	@Test
	void leaderThatTimedOutLeavesTheLeadToTheNextThread() throws Exception {
		ZooKeeperLockRegistry otherProcess = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		try {
			AcquiredLock other = otherProcess.acquire("k", LONG_WAIT);
			Future<AcquiredLock> leader = this.threads.submit(() -> this.registry.acquire("k", Duration.ofSeconds(5)));
			await().atMost(LONG_WAIT).until(() -> ContainerNodes.childrenOf(this.client, "/locks/k").size() == 2);
			AtomicReference<Thread> nextThread = new AtomicReference<>();
			Future<AcquiredLock> next = this.threads.submit(() -> {
				nextThread.set(Thread.currentThread());
				return this.registry.acquire("k", LONG_WAIT);
			});
			awaitWaiting(nextThread);
			assertThatExceptionOfType(ExecutionException.class)
				.isThrownBy(() -> leader.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS))
				.withCauseInstanceOf(LockTimeoutException.class);
			other.release();
			AcquiredLock taken = next.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
			assertThat(taken.fencingToken()).isGreaterThan(other.fencingToken());
			taken.release();
		}
		finally {
			otherProcess.close();
		}
	}

	/**
	 * A delayed release that ends counts one delayed release less ({@code exitDelayed}'s
	 * count) and lets go of the key's state on the registry's thread: the thread whose
	 * re-entry it released then leaves its hold with the delayed release of its outermost
	 * acquisition, and its next acquisition queues like any other's, within its wait
	 * time.
	 */
	@Test
	void threadWhoseDelayedReleaseOfAReentryEndedLeavesItsHoldWithItsOutermostDelayedRelease() throws Exception {
		Thread owner = new Thread(() -> {
		}, "owner");
		AcquiredLock outer = this.registry.acquire("k", LockNodeKind.EXCLUSIVE, LONG_WAIT, owner);
		AcquiredLock inner = this.registry.acquire("k", LockNodeKind.EXCLUSIVE, LONG_WAIT, owner);
		assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
		inner.releaseAfter(Duration.ZERO).toCompletableFuture().get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		Future<?> ownerGoesOn = this.threads.submit(() -> {
			outer.releaseAfter(Duration.ofHours(1));
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> this.registry.acquire("k", LockNodeKind.EXCLUSIVE, Duration.ZERO, owner));
			return null;
		});
		ownerGoesOn.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
	}

	/**
	 * A release that the hold's thread has no acquisition left for is refused, with an
	 * error that names the hold ({@code requireThreadAcquisition}, in {@code exit} and in
	 * {@code delayExit}): counted, it would end the hold under the delayed release that
	 * still keeps it.
	 */
	@Test
	void releaseOfAHoldWhoseThreadHasNoAcquisitionLeftIsRefused() {
		LockKey key = new LockKey("k", HandOffPolicy.disabled());
		LockNode node = new LockNode("/locks/k/_c_1-lock-0000000007", LockNodeKind.EXCLUSIVE, 7, 1);
		LockKey.Hold hold = new LockKey.Hold(key, node, 0, Thread.currentThread());
		assertThat(key.begin(hold, true, 0)).isTrue();
		assertThat(key.delayExit(hold)).isEqualTo(LockKey.Change.THREAD_LEFT);
		String refusal = "No acquisition of Hold[key=k, node=/locks/k/_c_1-lock-0000000007, fencingToken="
				+ (7L << LockNode.HAND_OFF_BITS) + ", session=0x1] by its thread is left to release";
		assertThatIllegalStateException().isThrownBy(() -> key.exit(hold)).withMessage(refusal);
		assertThatIllegalStateException().isThrownBy(() -> key.delayExit(hold)).withMessage(refusal);
		assertThat(key.exitDelayed(hold)).isEqualTo(LockKey.Change.ENDED);
	}

	/**
	 * A hold counts its acquisitions, delayed releases included, for any thread that
	 * reads the count under the key's lock: the model checkers read it from their own
	 * threads to check that no count goes negative and none is left.
	 */
	@Test
	void holdCountsItsAcquisitionsForAnyThreadThatReadsThem() throws Exception {
		LockKey key = new LockKey("k", HandOffPolicy.disabled());
		LockNode node = new LockNode("/locks/k/_c_1-lock-0000000007", LockNodeKind.EXCLUSIVE, 7, 1);
		LockKey.Hold hold = new LockKey.Hold(key, node, 0, Thread.currentThread());
		assertThat(key.begin(hold, true, 0)).isTrue();
		assertThat(key.reenter(LockNodeKind.EXCLUSIVE, Thread.currentThread())).isSameAs(hold);
		assertThat(key.delayExit(hold)).isEqualTo(LockKey.Change.STILL_HELD);
		assertThat(hold.acquisitions()).isEqualTo(2);
		assertThat(this.threads.submit(hold::acquisitions).get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)).isEqualTo(2);
		assertThat(key.exit(hold)).isEqualTo(LockKey.Change.THREAD_LEFT);
		assertThat(key.exitDelayed(hold)).isEqualTo(LockKey.Change.ENDED);
		assertThat(this.threads.submit(hold::acquisitions).get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)).isZero();
	}

	private LockKey.Hold take() throws Exception {
		return take(this.lockKey);
	}

	private LockKey.Hold take(LockKey key) throws Exception {
		return this.registry.driver()
			.take(key, LockNodeKind.EXCLUSIVE, LONG_WAIT, System.nanoTime() + LONG_WAIT.toNanos(),
					Thread.currentThread());
	}

	/** Waits until a thread waits for its turn in the key's state. */
	private static void awaitWaiting(AtomicReference<Thread> thread) {
		await().atMost(LONG_WAIT)
			.until(() -> thread.get() != null && thread.get().getState() == Thread.State.TIMED_WAITING
					&& Arrays.stream(thread.get().getStackTrace())
						.anyMatch((frame) -> frame.getClassName().equals(LockKey.class.getName())));
	}

	/** Whether a thread waits inside a method of the key's state. */
	private static boolean isIn(Thread thread, String method) {
		return thread.getState() != Thread.State.RUNNABLE && Arrays.stream(thread.getStackTrace())
			.anyMatch((frame) -> frame.getClassName().equals(LockKey.class.getName())
					&& frame.getMethodName().equals(method));
	}

	/**
	 * Runs steps while holding the key's lock (reentrant, so the steps may call the key's
	 * events): a waiting thread woken meanwhile runs again only after all of them.
	 */
	private void whileKeyStateLocked(Runnable steps) throws ReflectiveOperationException {
		whileKeyStateLocked(this.lockKey, steps);
	}

	private static void whileKeyStateLocked(LockKey key, Runnable steps) throws ReflectiveOperationException {
		Field field = LockKey.class.getDeclaredField("lock");
		field.setAccessible(true);
		ReentrantLock keyStateLock = (ReentrantLock) field.get(key);
		keyStateLock.lock();
		try {
			steps.run();
		}
		finally {
			keyStateLock.unlock();
		}
	}

}
