package dev.zklock.zookeeper;

import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.BiFunction;
import java.util.function.Consumer;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockAcquisitionException;
import dev.zklock.LockException;
import dev.zklock.LockManager;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.zookeeper.LockNode;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Acquires and releases ZooKeeper locks by key: one queue of lock nodes per key under a
 * root path, through Curator.
 * <p>
 * Each acquisition follows one path, which the {@link LockKeyDriver} drives: it re-enters
 * its thread's hold of the key if it has one, or else takes a turn in the key's
 * {@link LockKey} state (to hold a node passed on by another thread of this process with
 * no ZooKeeper round trip, within the bounds of the {@link HandOffPolicy}, or to lead,
 * that is to queue a node in ZooKeeper through the key's {@link LockQueue}), and the hold
 * begins once its node is found held in the client's current session. A release ends the
 * hold in the key's state and passes the node on or deletes it. The key's state is shared
 * by every thread that holds or waits for the key, which makes the lock reentrant per
 * thread, and dropped when no thread does, which keeps memory bounded by the number of
 * keys in use. Each key is one node directly under the root path (see {@link LockRoot});
 * the key node is a container node that ZooKeeper removes once it is empty.
 * <p>
 * An acquisition completes only when the lock node belongs to the client's current
 * session. A hold stays valid while that session provably lasts: what happens when the
 * connection is suspended or lost, or the process pauses, is the {@link LostLockPolicy}'s
 * choice.
 * <p>
 * A registry of several clients spreads the keys over their sessions by the key's hash;
 * each session has its own loss detector, and each key locks, is held and is detected
 * lost in its one session only, as in a registry of its own.
 */
public class ZooKeeperLockRegistry implements LockManager, AutoCloseable {

	// logs under the registry's name, which operators know and configure
	static final String LOGGER_NAME = "dev.zklock.zookeeper.ZooKeeperLockRegistry";

	private static final Logger logger = LoggerFactory.getLogger(LOGGER_NAME);

	/**
	 * The registry's ZooKeeper sessions, one per client, each with the keys that hash to
	 * it: ZooKeeper answers one session's requests in order, so a look at one key's queue
	 * waits only for the writes of its own session's keys.
	 */
	private final List<Session> sessions;

	private final HandOffPolicy handOffPolicy;

	/**
	 * The registry's background thread, a daemon: it runs delayed releases and checks for
	 * each session's first connection; once it is shut down, the registry is closed.
	 * Pauses are measured on a thread of the {@link LockLossDetector}'s own, as these
	 * tasks may hold this one up.
	 */
	private final ScheduledThreadPoolExecutor scheduler;

	private final ConcurrentMap<String, LockKey> keys = new ConcurrentHashMap<>();

	private final BiFunction<String, @Nullable LockKey, LockKey> retainer = this::retained;

	private final BiFunction<String, LockKey, @Nullable LockKey> disposer = ZooKeeperLockRegistry::disposed;

	/** The acquisitions that wait now, for operators, each under an id of its own. */
	private final Map<Long, Wait> waits = new ConcurrentHashMap<>();

	private final AtomicLong waitIds = new AtomicLong();

	private final AcquiredLock.Keeper keeper = new AcquiredLock.Keeper() {

		@Override
		public boolean isHeld(LockKey.Hold hold) {
			return sessionOf(hold.key()).lossDetector().isHeld(hold);
		}

		@Override
		public void release(LockKey lockKey, LockKey.Hold hold) {
			ZooKeeperLockRegistry.this.release(lockKey, hold);
		}

		@Override
		public CompletableFuture<@Nullable Void> releaseAfter(LockKey lockKey, LockKey.Hold hold, Duration delay) {
			return ZooKeeperLockRegistry.this.releaseAfter(lockKey, hold, delay);
		}

	};

	private volatile @Nullable String applicationName;

	/** Run by a delayed release once it counted its exit: nothing, except in tests. */
	private volatile Runnable delayedExitCounted = () -> {
	};

	/**
	 * Run by a leading acquisition once ZooKeeper showed its turn: nothing, except in
	 * tests.
	 */
	private volatile Runnable turnShown = () -> {
	};

	/**
	 * Creates a registry of locks under the root path, with the default
	 * {@link LostLockPolicy}.
	 * @param client the Curator client; started by its owner
	 * @param rootPath the ZooKeeper path under which the lock nodes live, such as
	 * {@code /locks}
	 */
	public ZooKeeperLockRegistry(CuratorFramework client, String rootPath) {
		this(client, rootPath, LostLockPolicy.defaults());
	}

	/**
	 * Creates a registry of locks under the root path, with the default
	 * {@link HandOffPolicy}.
	 * @param client the Curator client; started by its owner
	 * @param rootPath the ZooKeeper path under which the lock nodes live, such as
	 * {@code /locks}
	 * @param lostLockPolicy what counts as losing a held lock, and what happens to its
	 * holder then
	 */
	public ZooKeeperLockRegistry(CuratorFramework client, String rootPath, LostLockPolicy lostLockPolicy) {
		this(client, rootPath, lostLockPolicy, HandOffPolicy.defaults());
	}

	/**
	 * Creates a registry of locks under the root path.
	 * @param client the Curator client; started by its owner
	 * @param rootPath the ZooKeeper path under which the lock nodes live, such as
	 * {@code /locks}
	 * @param lostLockPolicy what counts as losing a held lock, and what happens to its
	 * holder then
	 * @param handOffPolicy whether and how long a released lock passes to the threads of
	 * this process that wait for it, before it is released to ZooKeeper
	 */
	public ZooKeeperLockRegistry(CuratorFramework client, String rootPath, LostLockPolicy lostLockPolicy,
			HandOffPolicy handOffPolicy) {
		this(oneClient(client), rootPath, lostLockPolicy, handOffPolicy);
	}

	/**
	 * Creates a registry of locks under the root path that spreads its keys over several
	 * ZooKeeper sessions, one per client, by the key's hash: each key always locks
	 * through the same session, and each lock is held, detected lost and given up in its
	 * own session. ZooKeeper answers one session's requests in order, so with one session
	 * a look at a key's queue waits for every write sent before it, whatever its key;
	 * with several it waits for those of its own session only, and locks of different
	 * keys take turns at ZooKeeper that much less.
	 * @param clients the Curator clients, at least one, each a session of its own, all
	 * connected to the same ensemble with the same credentials; started and closed by
	 * their owner
	 * @param rootPath the ZooKeeper path under which the lock nodes live, such as
	 * {@code /locks}
	 * @param lostLockPolicy what counts as losing a held lock, and what happens to its
	 * holder then
	 * @param handOffPolicy whether and how long a released lock passes to the threads of
	 * this process that wait for it, before it is released to ZooKeeper
	 */
	public ZooKeeperLockRegistry(List<CuratorFramework> clients, String rootPath, LostLockPolicy lostLockPolicy,
			HandOffPolicy handOffPolicy) {
		if (clients == null || clients.isEmpty()) {
			throw new IllegalArgumentException("'clients' must not be null or empty");
		}
		if (clients.stream().anyMatch(Objects::isNull)) {
			throw new IllegalArgumentException("'clients' must not contain null, but was " + clients);
		}
		if (Set.copyOf(clients).size() < clients.size()) {
			throw new IllegalArgumentException("'clients' must be distinct: each is a session of its own");
		}
		String validRootPath = LockRoot.validPath(rootPath);
		if (lostLockPolicy == null) {
			throw new IllegalArgumentException("'lostLockPolicy' must not be null");
		}
		if (handOffPolicy == null) {
			throw new IllegalArgumentException("'handOffPolicy' must not be null");
		}
		this.handOffPolicy = handOffPolicy;
		this.scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "zklock-registry");
			thread.setDaemon(true);
			return thread;
		});
		List<Session> sessions = new ArrayList<>(clients.size());
		for (CuratorFramework client : clients) {
			LockRoot root = new LockRoot(client, validRootPath);
			String label = (clients.size() > 1)
					? "Lock session " + (sessions.size() + 1) + " of " + clients.size() + ": " : "";
			LockLossDetector lossDetector = new LockLossDetector(client, lostLockPolicy, this.scheduler, label);
			sessions.add(new Session(root, lossDetector, driver(root, lossDetector)));
		}
		this.sessions = List.copyOf(sessions);
	}

	private static List<CuratorFramework> oneClient(CuratorFramework client) {
		if (client == null) {
			throw new IllegalArgumentException("'client' must not be null");
		}
		return List.of(client);
	}

	/**
	 * The driver of the keys of one session: a {@link LockQueue} per key under the
	 * session's root for the ZooKeeper side, and the session's loss detector for what is
	 * known of losses.
	 */
	private LockKeyDriver driver(LockRoot root, LockLossDetector lossDetector) {
		return new LockKeyDriver(new LockKeyDriver.Queue() {

			@Override
			public LockKey.@Nullable Turn take(String key, LockNodeKind kind, @Nullable Thread owner, Duration waitTime,
					long deadline) throws Exception {
				LockQueue.Turn turn = new LockQueue(root, key).take(kind,
						HolderIdentity.current(ZooKeeperLockRegistry.this.applicationName, owner != null), waitTime,
						deadline, lossDetector);
				if (turn == null) {
					return null;
				}
				ZooKeeperLockRegistry.this.turnShown.run();
				return new LockKey.Turn(turn.node(), 0, turn.checkedAt());
			}

			@Override
			public void watchBehind(String key, LockNode held, Consumer<Boolean> othersQueued) throws Exception {
				new LockQueue(root, key).watchBehind(held, othersQueued);
			}

			@Override
			public void release(String key, LockNode node) {
				new LockQueue(root, key).release(node);
			}

			@Override
			public void abandon(String key, LockNode node) {
				new LockQueue(root, key).abandon(node);
			}

			@Override
			public @Nullable String describeHead(String key, long deadline) {
				return new LockQueue(root, key).describeHead(deadline);
			}

		}, new LockKeyDriver.Detector() {

			@Override
			public void register(LockKey.Hold hold) {
				lossDetector.register(hold);
			}

			@Override
			public void unregister(LockKey.Hold hold) {
				lossDetector.unregister(hold);
			}

			@Override
			public boolean isHeld(LockKey.Hold hold) {
				return lossDetector.isHeld(hold);
			}

			@Override
			public long doubts() {
				return lossDetector.doubts();
			}

			@Override
			public boolean undoubtedSince(long doubts) {
				return lossDetector.undoubtedSince(doubts);
			}

			@Override
			public boolean unpausedSince(long pauses) {
				return lossDetector.unpausedSince(pauses);
			}

			@Override
			public long currentSessionId() {
				return lossDetector.currentSessionId();
			}

		});
	}

	/**
	 * Names the application in the lock nodes it creates, next to the host, the process
	 * id and the thread, so that operators and timed-out contenders can tell who holds a
	 * lock.
	 * @param applicationName the application's name, or {@code null} for none
	 */
	public void setApplicationName(@Nullable String applicationName) {
		this.applicationName = applicationName;
	}

	/**
	 * Keeps the root path in the hands of the clients that share this client's
	 * credentials: the root becomes a persistent node with a guard child, which nobody
	 * without the right to delete in the root can remove, so ZooKeeper never reaps it and
	 * no stranger can delete or replace it; and before the first lock, the registry
	 * checks that the root carries the ACL this client gives the nodes it creates, and
	 * refuses to lock under a root that somebody else made (see {@link #checkRoot()}).
	 * Call it before the first lock, for a client that authenticates and creates nodes
	 * with an ACL of its own (such as {@code CREATOR_ALL_ACL}).
	 */
	public void guardRoot() {
		this.sessions.forEach((session) -> session.root().guard());
	}

	/**
	 * Creates the guarded root if need be and checks its ACL now, if {@link #guardRoot}
	 * was called; otherwise does nothing. The check is made once: afterwards nobody
	 * without the credentials can change the root.
	 * @throws IllegalStateException if the root's ACL is not the expected one, naming the
	 * ACL found, or ZooKeeper fails
	 */
	public void checkRoot() {
		this.sessions.forEach((session) -> session.root().check());
	}

	/**
	 * The ZooKeeper path under which the lock nodes live.
	 * @return the root path
	 */
	public String getRootPath() {
		return firstSession().root().path();
	}

	/**
	 * The ZooKeeper path of the node that holds the lock of a key.
	 * @param key the lock key
	 * @return the key's node path, directly under the root path
	 */
	public String pathOf(String key) {
		return firstSession().root().pathOf(key);
	}

	/**
	 * A {@link java.util.concurrent.locks.Lock} view of the key's exclusive lock. It
	 * shares this registry's holds, so a thread that holds the key through the annotation
	 * or the template re-enters it through the view, and the other way round. All views
	 * of a key behave as one lock: a thread may unlock through any of them what it locked
	 * through another. They are {@link ZooKeeperLock#equals(Object) equal} too, whereas
	 * views of other keys or of another registry are not.
	 * @param key the lock key
	 * @return the lock view; cheap, so obtain one where it is needed
	 */
	public ZooKeeperLock obtain(String key) {
		return new ZooKeeperLock(this, key);
	}

	/**
	 * Acquires the exclusive lock for the key, waiting at most the wait time, all
	 * included: waiting for a ZooKeeper connection and for other holders.
	 * @param key the lock key
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once (a client
	 * without a connection is waited for up to its connection timeout, even past a
	 * shorter wait time), and a wait time beyond {@link #LONGEST_WAIT} waits without
	 * bound
	 * @return the acquisition, to be released by the calling thread
	 * @throws LockTimeoutException if another holder kept the lock for the wait time
	 * @throws LockAcquisitionException if ZooKeeper could not be reached within the wait
	 * time, failed, the thread was interrupted (its interrupt flag stays set), the thread
	 * holds the key already and that hold was lost (a nested acquisition never starts
	 * under a lock known to be lost), or the registry is closed
	 * @throws IllegalArgumentException if the key is {@code null} or blank, or the wait
	 * time {@code null} or negative
	 */
	public AcquiredLock acquire(String key, Duration waitTime) {
		return acquire(key, LockType.EXCLUSIVE, 1, waitTime);
	}

	/**
	 * Acquires a lock of the key of the given type, waiting at most the wait time, all
	 * included: waiting for a ZooKeeper connection and for other holders.
	 * @throws LockTimeoutException if other holders kept the lock for the wait time
	 * @throws LockAcquisitionException if ZooKeeper could not be reached within the wait
	 * time, failed, other holders use the key as another type of lock, the thread was
	 * interrupted (its interrupt flag stays set), the thread holds the key already and
	 * that hold was lost, or the registry is closed
	 * @throws IllegalStateException if the thread holds the key's read lock and asks for
	 * its write or exclusive lock, which would deadlock
	 * @throws IllegalArgumentException if the key is {@code null} or blank, the wait time
	 * {@code null} or negative, the type {@code null}, or the permits do not fit the type
	 */
	@Override
	public AcquiredLock acquire(String key, LockType type, int permits, Duration waitTime) {
		return acquire(key, LockNodeKind.of(type, permits), waitTime, Thread.currentThread());
	}

	/**
	 * Acquires a lock of the key that belongs to no thread: not reentrant (a thread that
	 * asks for the key again queues like any other contender), never interrupted by the
	 * lost-lock policy, and released by whichever thread is done with it, now or later
	 * ({@link AcquiredLock#releaseAfter(Duration)}). For locks kept beyond a call, such
	 * as until an asynchronous result completes.
	 * @throws LockTimeoutException if other holders kept the lock for the wait time
	 * @throws LockAcquisitionException if ZooKeeper could not be reached within the wait
	 * time, failed, other holders use the key as another type of lock, the thread was
	 * interrupted (its interrupt flag stays set), or the registry is closed
	 * @throws IllegalArgumentException if the key is {@code null} or blank, the wait time
	 * {@code null} or negative, the type {@code null}, or the permits do not fit the type
	 */
	@Override
	public AcquiredLock acquireDetached(String key, LockType type, int permits, Duration waitTime) {
		return acquire(key, LockNodeKind.of(type, permits), waitTime, null);
	}

	/**
	 * What counts as losing a held lock, and what happens to its holder then.
	 * @return the lost-lock policy
	 */
	public LostLockPolicy getLostLockPolicy() {
		return firstSession().lossDetector().policy();
	}

	@Override
	public boolean raisesLossOnCompletion() {
		return getLostLockPolicy().raisesOnCompletion();
	}

	/**
	 * Whether and how long a released lock passes to the threads of this process that
	 * wait for it.
	 * @return the hand-off policy
	 */
	public HandOffPolicy getHandOffPolicy() {
		return this.handOffPolicy;
	}

	/**
	 * Stops watching the client's connection, the thread that detects pauses of the
	 * process, and the background thread that enforces deadlines. The client stays open:
	 * it belongs to its owner. Afterwards, acquisitions fail, releases delete their nodes
	 * in the background, and delayed releases not yet done never happen: the end of the
	 * client's session deletes their nodes.
	 */
	@Override
	public void close() {
		this.sessions.forEach((session) -> session.lossDetector().close());
		this.scheduler.shutdownNow();
	}

	/**
	 * The locks this process holds now, through any thread or call.
	 * @return the held locks
	 */
	public List<LockActivity> heldLocks() {
		return this.sessions.stream()
			.flatMap((session) -> session.lossDetector().holds().stream())
			.map(LockActivity::held)
			.toList();
	}

	/**
	 * The locks this process waits for now.
	 * @return the awaited locks
	 */
	public List<LockActivity> waitingLocks() {
		return this.waits.values().stream().map(Wait::activity).toList();
	}

	/**
	 * The queue of a key's lock as ZooKeeper sees it: the nodes of every process that
	 * holds or waits for it, in order, with who asked for each.
	 * @param key the lock key
	 * @return the nodes, empty if nobody holds or waits for the key
	 * @throws IllegalArgumentException if the key is {@code null} or empty
	 * @throws IllegalStateException if ZooKeeper cannot be read
	 */
	public List<QueuedLockNode> queueOf(String key) {
		LockQueue queue = lockQueue(key);
		try {
			return queue.nodes();
		}
		catch (Exception ex) {
			throw new IllegalStateException(
					"Could not read the lock queue of '" + AbbreviatedKey.of(key) + "' from ZooKeeper: " + ex, ex);
		}
	}

	private LockQueue lockQueue(String key) {
		return new LockQueue(sessionOf(key).root(), key);
	}

	/** The session whose client locks a key: always the same for a key. */
	private Session sessionOf(String key) {
		return (this.sessions.size() == 1) ? firstSession()
				: this.sessions.get(Math.floorMod(key.hashCode(), this.sessions.size()));
	}

	private Session firstSession() {
		return this.sessions.get(0);
	}

	/**
	 * Number of keys whose lock is held or waited for in this process.
	 * @return the number of keys in use
	 */
	public int keysInUse() {
		return this.keys.size();
	}

	/**
	 * Acquires a lock of the key, waiting at most the wait time (one beyond
	 * {@link LockManager#LONGEST_WAIT} waits without bound), all included: the
	 * acquisition re-enters its owner thread's hold of the key, or takes a hold of its
	 * own; without an owner it belongs to no thread.
	 */
	AcquiredLock acquire(String key, LockNodeKind kind, Duration requestedWaitTime, @Nullable Thread owner) {
		if (key == null || key.isBlank()) {
			throw new IllegalArgumentException("Lock key must not be null or blank");
		}
		if (requestedWaitTime == null) {
			throw new IllegalArgumentException("'waitTime' must not be null");
		}
		if (requestedWaitTime.isNegative()) {
			throw new IllegalArgumentException("Wait time must not be negative, but was " + requestedWaitTime);
		}
		if (this.scheduler.isShutdown()) {
			throw new LockAcquisitionException(key,
					"Could not acquire lock '" + AbbreviatedKey.of(key) + "': the lock registry is closed", null);
		}
		Duration waitTime = (requestedWaitTime.compareTo(LockManager.LONGEST_WAIT) > 0) ? LockManager.LONGEST_WAIT
				: requestedWaitTime;
		long deadline = System.nanoTime() + waitTime.toNanos();
		LockKey lockKey = this.keys.compute(key, this.retainer);
		boolean acquired = false;
		try {
			LockKey.Hold hold = sessionOf(key).driver().reenter(lockKey, kind, owner);
			if (hold == null) {
				hold = takeWhileSeenWaiting(lockKey, kind, waitTime, deadline, owner);
			}
			acquired = true;
			return new AcquiredLock(lockKey, hold, this.keeper);
		}
		finally {
			if (!acquired) {
				this.keys.computeIfPresent(key, this.disposer);
			}
		}
	}

	/**
	 * Takes a hold of its own for an acquisition, while operators see it wait, and
	 * reports every failure as a {@link LockAcquisitionException}.
	 */
	private LockKey.Hold takeWhileSeenWaiting(LockKey lockKey, LockNodeKind kind, Duration waitTime, long deadline,
			@Nullable Thread owner) {
		String key = lockKey.key;
		Long waitId = this.waitIds.incrementAndGet();
		this.waits.put(waitId, new Wait(key, kind, System.currentTimeMillis(), owner));
		try {
			return sessionOf(key).driver().take(lockKey, kind, waitTime, deadline, owner);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(key, "Interrupted while acquiring lock '" + AbbreviatedKey.of(key) + "'",
					ex);
		}
		catch (LockException ex) {
			throw ex;
		}
		catch (LockNodeKind.ConflictException ex) {
			throw new LockAcquisitionException(key,
					"Could not acquire lock '" + AbbreviatedKey.of(key) + "': " + ex.getMessage(), ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + AbbreviatedKey.of(key) + "': " + ex,
					ex);
		}
		finally {
			this.waits.remove(waitId);
		}
	}

	/**
	 * Releases one acquisition ({@link LockKeyDriver#release}), and forgets the key's
	 * state once no acquisition uses it.
	 */
	private void release(LockKey lockKey, LockKey.Hold hold) {
		try {
			sessionOf(lockKey.key).driver().release(lockKey, hold);
		}
		finally {
			this.keys.computeIfPresent(lockKey.key, this.disposer);
		}
	}

	/**
	 * Releases an acquisition after a delay, on the registry's thread, without waiting
	 * for ZooKeeper to confirm the deletion of its node; the stage returned completes
	 * once the release is done. A thread whose last acquisition of its hold this is
	 * leaves the hold now: its later acquisitions of the key queue like any other's.
	 */
	private CompletableFuture<@Nullable Void> releaseAfter(LockKey lockKey, LockKey.Hold hold, Duration delay) {
		LockKeyDriver driver = sessionOf(lockKey.key).driver();
		driver.delayRelease(lockKey, hold);
		CompletableFuture<@Nullable Void> released = new CompletableFuture<>();
		try {
			this.scheduler.schedule(() -> {
				try {
					driver.endDelayedRelease(lockKey, hold, this.delayedExitCounted);
				}
				finally {
					this.keys.computeIfPresent(lockKey.key, this.disposer);
					released.complete(null);
				}
			}, ((delay.compareTo(LockManager.LONGEST_WAIT) > 0) ? LockManager.LONGEST_WAIT : delay).toNanos(),
					TimeUnit.NANOSECONDS);
		}
		catch (RejectedExecutionException ex) {
			logger.debug("Lock '{}' stays held until the ZooKeeper session ends: its registry closed before its "
					+ "delayed release was scheduled", AbbreviatedKey.of(lockKey.key));
		}
		return released;
	}

	/**
	 * Lets a test run a step on the registry's thread each time a delayed release has
	 * counted its exit, before it acts on the count: a seam that forces interleavings.
	 */
	void onDelayedExitCounted(Runnable step) {
		this.delayedExitCounted = step;
	}

	/**
	 * Lets a test run a step on a leading acquisition's thread each time ZooKeeper showed
	 * its node's turn, before the hold begins: a seam that forces interleavings.
	 */
	void onTurnShown(Runnable step) {
		this.turnShown = step;
	}

	/**
	 * The detector that tells the holds of the registry's first session of losses, the
	 * only one of a registry of one client; for tests.
	 */
	LockLossDetector lossDetector() {
		return firstSession().lossDetector();
	}

	/**
	 * The driver of the keys of the registry's first session, all keys of a registry of
	 * one client; for tests.
	 */
	LockKeyDriver driver() {
		return firstSession().driver();
	}

	private LockKey retained(String key, @Nullable LockKey lockKey) {
		LockKey retained = (lockKey != null) ? lockKey : new LockKey(key, this.handOffPolicy);
		retained.addUser();
		return retained;
	}

	private static @Nullable LockKey disposed(String key, LockKey lockKey) {
		return lockKey.removeUser() ? lockKey : null;
	}

	/**
	 * An acquisition that waits for its lock, recorded for operators; the
	 * {@link LockActivity} they read is made from it only when they ask.
	 */
	/**
	 * One ZooKeeper session of the registry: the root as its client sees it, its loss
	 * detector, and the driver of the keys that hash to it.
	 */
	private record Session(LockRoot root, LockLossDetector lossDetector, LockKeyDriver driver) {

	}

	private record Wait(String key, LockNodeKind kind, long sinceMillis, @Nullable Thread thread) {

		LockActivity activity() {
			return LockActivity.waiting(this.key, this.kind, Instant.ofEpochMilli(this.sinceMillis), this.thread);
		}

	}

}
