package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.testsupport.ContainerNodes;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock node passes to another thread of the process only if nothing cast doubt on it
 * since its last holder found it held. The steps of a release are taken one by one here,
 * on a real ZooKeeper server, so that a doubt falls exactly between the releasing
 * holder's check and its successor's registration; the process's pause is stood in for by
 * the detector's seam for a detected pause ({@link PauseDetectionTests} pauses real
 * processes).
 */
class HandOffDoubtTests {

	private static final Duration LONG_WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private CuratorFramework client;

	private ZooKeeperLockRegistry registry;

	private LockLossDetector detector;

	private final LockKey lockKey = new LockKey("hot", new HandOffPolicy(true, 64, Duration.ofMinutes(1)));

	@BeforeEach
	void connect() throws Exception {
		this.client = this.zookeeper.newClient();
		this.registry = new ZooKeeperLockRegistry(this.client, "/locks");
		this.detector = this.registry.lossDetector();
	}

	@AfterEach
	void stop() {
		this.threads.shutdownNow();
		this.registry.close();
	}

	@Test
	void pauseBetweenTheReleasingHoldersCheckAndItsSuccessorsRegistrationSendsTheSuccessorToZooKeeper()
			throws Exception {
		LockKey.Hold first = take();
		Future<LockKey.Hold> successor = startSuccessor();
		long checkedAt = checkAndEnd(first);
		pauseLongerThanHalfTheSessionTimeout();
		assertThat(this.lockKey.giveBack(first, true, checkedAt)).isNull();
		LockKey.Hold second = successor.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(second.node()).isNotEqualTo(first.node());
		assertThat(second.fencingToken()).isGreaterThan(first.fencingToken());
		assertThat(this.detector.isHeld(second)).isTrue();
		await().until(() -> ContainerNodes.childrenOf(this.client, "/locks/hot").equals(List.of(second.node().name())));
	}

	@Test
	void releaseWithNoDoubtSinceItsCheckHandsTheNodeOverWithAGreaterToken() throws Exception {
		LockKey.Hold first = take();
		Future<LockKey.Hold> successor = startSuccessor();
		long checkedAt = checkAndEnd(first);
		assertThat(this.lockKey.giveBack(first, true, checkedAt)).isNull();
		LockKey.Hold second = successor.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(second.node()).isEqualTo(first.node());
		assertThat(second.fencingToken()).isEqualTo(first.fencingToken() + 1);
	}

	@Test
	void pauseAfterZooKeeperShowedANodesTurnIsCountedAgainstThatTurn() throws Exception {
		LockQueue queue = new LockQueue(new LockRoot(this.client, "/locks"), "hot");
		LockQueue.Turn turn = queue.take(LockNodeKind.EXCLUSIVE, HolderIdentity.current("doubts", true), LONG_WAIT,
				System.nanoTime() + LONG_WAIT.toNanos(), this.detector);
		assertThat(this.detector.unpausedSince(turn.checkedAt())).isTrue();
		pauseLongerThanHalfTheSessionTimeout();
		assertThat(this.detector.unpausedSince(turn.checkedAt())).isFalse();
		queue.abandon(turn.node());
	}

	/**
	 * A pause of the process after ZooKeeper showed a leading acquisition its turn, and
	 * before its hold began, keeps the hold from beginning on that node: the session may
	 * have ended meanwhile without the client knowing yet. The acquisition queues a new
	 * node, whose turn comes with no pause, and holds that one.
	 */
	@Test
	void pauseBetweenALeadersTurnAndItsHoldQueuesANewNode() throws Exception {
		List<String> turns = new CopyOnWriteArrayList<>();
		this.registry.onTurnShown(() -> {
			turns.add(this.registry.queueOf("paused-turn").get(0).node());
			if (turns.size() == 1) {
				pauseLongerThanHalfTheSessionTimeout();
			}
		});
		AcquiredLock lock = this.registry.acquire("paused-turn", LONG_WAIT);
		assertThat(turns).as("the turns shown: the first given up after the pause").hasSize(2).doesNotHaveDuplicates();
		assertThat(this.registry.queueOf("paused-turn")).extracting(QueuedLockNode::node).containsExactly(turns.get(1));
		lock.release();
	}

	/**
	 * The first steps of a release, as the registry takes them: read the doubt count,
	 * find the lock held, end the hold; the hand-off is the test's to take.
	 * @return the doubt count read before the check
	 */
	private long checkAndEnd(LockKey.Hold hold) {
		long checkedAt = this.detector.doubts();
		assertThat(this.detector.isHeld(hold)).isTrue();
		assertThat(this.lockKey.exit(hold)).isEqualTo(LockKey.Change.ENDED);
		this.detector.unregister(hold);
		return checkedAt;
	}

	private LockKey.Hold take() throws Exception {
		return this.registry.driver()
			.take(this.lockKey, LockNodeKind.EXCLUSIVE, LONG_WAIT, System.nanoTime() + LONG_WAIT.toNanos(),
					Thread.currentThread());
	}

	/**
	 * Starts a thread that takes the lock, and waits until it waits for its turn in the
	 * key's state.
	 */
	private Future<LockKey.Hold> startSuccessor() {
		AtomicReference<Thread> successor = new AtomicReference<>();
		Future<LockKey.Hold> taken = this.threads.submit(() -> {
			successor.set(Thread.currentThread());
			return take();
		});
		await().until(() -> successor.get() != null && successor.get().getState() == Thread.State.TIMED_WAITING
				&& Arrays.stream(successor.get().getStackTrace())
					.anyMatch((frame) -> frame.getClassName().equals(LockKey.class.getName())));
		return taken;
	}

	/**
	 * Has the detector handle a pause of longer than half the session timeout, as its
	 * pause watcher does when the process stood still that long.
	 */
	private void pauseLongerThanHalfTheSessionTimeout() {
		this.detector.pauseDetected(ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS * 3 / 4,
				ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS);
	}

}
