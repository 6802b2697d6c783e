package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.List;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockManager;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * Acquires and releases ZooKeeper locks by key: one {@link LockQueue} per key under a
 * root path, through Curator.
 * <p>
 * A key's entry is shared by every thread that holds or waits for it, which makes the
 * lock reentrant per thread, and dropped when no thread does, which keeps memory bounded
 * by the number of keys in use. Each key is one node directly under the root path (see
 * {@link LockRoot}); the key node is a container node that ZooKeeper removes once it is
 * empty.
 * <p>
 * The threads of this process that want the same key take turns among themselves: only
 * one at a time queues in ZooKeeper, and a released lock passes to the next waiting
 * thread with no ZooKeeper round trip, within the bounds of the {@link HandOffPolicy}.
 * <p>
 * An acquisition completes only when the lock node belongs to the client's current
 * session. A hold stays valid while that session provably lasts: what happens when the
 * connection is suspended or lost, or the process pauses, is the {@link LostLockPolicy}'s
 * choice.
 */
public class ZooKeeperLockRegistry implements LockManager, AutoCloseable {

	private final LockRoot root;

	private final LockEntries entries;

	private final RegistryScheduler scheduler;

	private final LockLossDetector lossDetector;

	private final RegistryAcquisitions acquisitions;

	private final LockOverview overview;

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
		RegistrySettings settings = new RegistrySettings(client, rootPath, lostLockPolicy, handOffPolicy);
		this.root = new LockRoot(settings.client(), settings.rootPath());
		this.entries = new LockEntries(this.root, settings.handOffPolicy());
		this.scheduler = new RegistryScheduler();
		this.lossDetector = new LockLossDetector(settings.client(), settings.lostLockPolicy(), this.scheduler);
		LockWaits waits = new LockWaits();
		this.acquisitions = new RegistryAcquisitions(this.entries, this.lossDetector, this.scheduler, waits);
		this.overview = new LockOverview(this.root, this.lossDetector, waits, this.entries);
	}

	/**
	 * Names the application in the lock nodes it creates, next to the host, the process
	 * id and the thread, so that operators and timed-out contenders can tell who holds a
	 * lock.
	 * @param applicationName the application's name, or {@code null} for none
	 */
	public void setApplicationName(@Nullable String applicationName) {
		this.acquisitions.setApplicationName(applicationName);
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
		this.root.guard();
	}

	/**
	 * Creates the guarded root if need be and checks its ACL now, if {@link #guardRoot}
	 * was called; otherwise does nothing. The check is made once: afterwards nobody
	 * without the credentials can change the root.
	 * @throws IllegalStateException if the root's ACL is not the expected one, naming the
	 * ACL found, or ZooKeeper fails
	 */
	public void checkRoot() {
		this.root.check();
	}

	/**
	 * The ZooKeeper path under which the lock nodes live.
	 * @return the root path
	 */
	public String getRootPath() {
		return this.root.path();
	}

	/**
	 * The ZooKeeper path of the node that holds the lock of a key.
	 * @param key the lock key
	 * @return the key's node path, directly under the root path
	 */
	public String pathOf(String key) {
		return this.root.pathOf(key);
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
		return new ZooKeeperLock(this, this.entries, key);
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
	 * @param key the lock key
	 * @param type what the lock lets other holders do meanwhile
	 * @param permits the number of permits of a {@link LockType#SEMAPHORE}; {@code 1} for
	 * the other types
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once (a client
	 * without a connection is waited for up to its connection timeout, even past a
	 * shorter wait time), and a wait time beyond {@link #LONGEST_WAIT} waits without
	 * bound
	 * @return the acquisition, to be released by the calling thread
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
		return this.acquisitions.acquire(key, LockNodeKind.of(type, permits), waitTime, Thread.currentThread());
	}

	/**
	 * Acquires a lock of the key that belongs to no thread: not reentrant (a thread that
	 * asks for the key again queues like any other contender), never interrupted by the
	 * lost-lock policy, and released by whichever thread is done with it, now or later
	 * ({@link AcquiredLock#releaseAfter(Duration)}). For locks kept beyond a call, such
	 * as until an asynchronous result completes.
	 * @param key the lock key
	 * @param type what the lock lets other holders do meanwhile
	 * @param permits the number of permits of a {@link LockType#SEMAPHORE}; {@code 1} for
	 * the other types
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once (a client
	 * without a connection is waited for up to its connection timeout, even past a
	 * shorter wait time), and a wait time beyond {@link #LONGEST_WAIT} waits without
	 * bound
	 * @return the acquisition, to be released once, by any thread
	 * @throws LockTimeoutException if other holders kept the lock for the wait time
	 * @throws LockAcquisitionException if ZooKeeper could not be reached within the wait
	 * time, failed, other holders use the key as another type of lock, the thread was
	 * interrupted (its interrupt flag stays set), or the registry is closed
	 * @throws IllegalArgumentException if the key is {@code null} or blank, the wait time
	 * {@code null} or negative, the type {@code null}, or the permits do not fit the type
	 */
	@Override
	public AcquiredLock acquireDetached(String key, LockType type, int permits, Duration waitTime) {
		return this.acquisitions.acquire(key, LockNodeKind.of(type, permits), waitTime, null);
	}

	/**
	 * What counts as losing a held lock, and what happens to its holder then.
	 * @return the lost-lock policy
	 */
	public LostLockPolicy getLostLockPolicy() {
		return this.lossDetector.policy();
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
		return this.entries.handOffPolicy();
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
		this.lossDetector.close();
		this.scheduler.shutdownNow();
	}

	/**
	 * The locks this process holds now, through any thread or call.
	 * @return the held locks
	 */
	public List<LockActivity> heldLocks() {
		return this.overview.heldLocks();
	}

	/**
	 * The locks this process waits for now.
	 * @return the awaited locks
	 */
	public List<LockActivity> waitingLocks() {
		return this.overview.waitingLocks();
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
		return this.overview.queueOf(key);
	}

	/**
	 * Number of keys whose lock is held or waited for in this process.
	 * @return the number of keys in use
	 */
	public int keysInUse() {
		return this.overview.keysInUse();
	}

}
