package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockAcquisitionException;
import dev.zklock.LockException;
import dev.zklock.LockManager;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.curator.framework.CuratorFramework;
import dev.zklock.zookeeper.LockQueue.QueuedNode;
import org.jspecify.annotations.Nullable;

/**
 * Acquires and releases ZooKeeper locks by key: one {@link LockQueue} per key under a
 * root path, through Curator.
 * <p>
 * A key's entry is shared by every thread that holds or waits for it, which makes the
 * lock reentrant per thread, and dropped when no thread does, which keeps memory bounded
 * by the number of keys in use. Each key is one node directly under the root path (see
 * {@link LockNodeNames}); the key node is a container node that ZooKeeper removes once it
 * is empty.
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

	private static final Logger logger = LoggerFactory.getLogger(ZooKeeperLockRegistry.class);

	private final CuratorFramework client;

	private final String rootPath;

	private final LockEntries entries;

	private final ScheduledThreadPoolExecutor scheduler;

	private final QueueTurns queueTurns;

	private final LockAcquirer acquirer;

	private final LockLossDetector lossDetector;

	private final Set<LockWait> waiting = ConcurrentHashMap.newKeySet();

	private volatile @Nullable String applicationName;

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
		if (client == null) {
			throw new IllegalArgumentException("'client' must not be null");
		}
		if (lostLockPolicy == null) {
			throw new IllegalArgumentException("'lostLockPolicy' must not be null");
		}
		if (handOffPolicy == null) {
			throw new IllegalArgumentException("'handOffPolicy' must not be null");
		}
		this.client = client;
		this.rootPath = LockNodeNames.validRootPath(rootPath);
		this.entries = new LockEntries(client, this::pathOf, handOffPolicy);
		this.scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "zklock-registry");
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.setRemoveOnCancelPolicy(true);
		this.queueTurns = new QueueTurns(client);
		this.lossDetector = new LockLossDetector(client, lostLockPolicy, this.scheduler);
		this.acquirer = new LockAcquirer(this.queueTurns, this.lossDetector);
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
		this.queueTurns.guardRoot(new RootGuard(this.client, this.rootPath));
	}

	/**
	 * Creates the guarded root if need be and checks its ACL now, if {@link #guardRoot}
	 * was called; otherwise does nothing. The check is made once: afterwards nobody
	 * without the credentials can change the root.
	 * @throws IllegalStateException if the root's ACL is not the expected one, naming the
	 * ACL found, or ZooKeeper fails
	 */
	public void checkRoot() {
		RootGuard guard = this.queueTurns.rootGuard();
		if (guard == null) {
			return;
		}
		try {
			guard.verify();
		}
		catch (IllegalStateException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not check the lock root " + this.rootPath + ": " + ex, ex);
		}
	}

	/**
	 * The ZooKeeper path under which the lock nodes live.
	 * @return the root path
	 */
	public String getRootPath() {
		return this.rootPath;
	}

	/**
	 * The ZooKeeper path of the node that holds the lock of a key.
	 * @param key the lock key
	 * @return the key's node path, directly under the root path
	 */
	public String pathOf(String key) {
		if (key == null || key.isEmpty()) {
			throw new IllegalArgumentException("Lock key must not be empty");
		}
		// a node name never holds '/', and the root path is valid and not '/'
		return this.rootPath + '/' + LockNodeNames.nodeName(key);
	}

	/**
	 * A {@link java.util.concurrent.locks.Lock} view of the key's exclusive lock. It
	 * shares this registry's holds, so a thread that holds the key through the annotation
	 * or the template re-enters it through the view, and the other way round. All views
	 * of a key behave as one lock: a thread may unlock through any of them what it locked
	 * through another.
	 * @param key the lock key
	 * @return the lock view; cheap, so obtain one where it is needed
	 */
	public ZooKeeperLock obtain(String key) {
		if (key == null || key.isBlank()) {
			throw new IllegalArgumentException("Lock key must not be null or blank");
		}
		return new ZooKeeperLock(this, key);
	}

	/**
	 * Acquires the exclusive lock for the key, waiting at most the wait time, all
	 * included: waiting for a ZooKeeper connection and for other holders.
	 * @param key the lock key
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once, and a wait time
	 * beyond {@link #LONGEST_WAIT} waits without bound
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
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once, and a wait time
	 * beyond {@link #LONGEST_WAIT} waits without bound
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
		return acquire(key, LockNodeKind.of(type, permits), waitTime, Thread.currentThread());
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
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once, and a wait time
	 * beyond {@link #LONGEST_WAIT} waits without bound
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
		return acquire(key, LockNodeKind.of(type, permits), waitTime, null);
	}

	private AcquiredLock acquire(String key, LockNodeKind kind, Duration requestedWaitTime, @Nullable Thread owner) {
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
		Duration waitTime = (requestedWaitTime.compareTo(LONGEST_WAIT) > 0) ? LONGEST_WAIT : requestedWaitTime;
		long deadline = System.nanoTime() + waitTime.toNanos();
		LockEntry entry = this.entries.retain(key);
		LockHold current = (owner != null && !(kind instanceof LockNodeKind.Permit)) ? entry.holds.get(owner) : null;
		if (current != null) {
			if (kind == LockNodeKind.EXCLUSIVE && current.kind() == LockNodeKind.SHARED) {
				this.entries.dispose(entry);
				throw new IllegalStateException("The current thread holds the read lock of '" + AbbreviatedKey.of(key)
						+ "' and asks for its exclusive (write) lock: that upgrade would wait for itself; "
						+ "release the read lock first");
			}
			if (!isHeld(current) && current.lossReason() != null) {
				this.entries.dispose(entry);
				throw new LockAcquisitionException(key,
						"Could not re-enter lock '" + AbbreviatedKey.of(key)
								+ "': the current thread's hold of it (fencing token " + current.fencingToken()
								+ ") was lost: " + current.lossReason(),
						null);
			}
			current.enter();
			return new AcquiredLock(this, entry, current);
		}
		boolean acquired = false;
		LockWait wait = new LockWait(key, kind, owner);
		this.waiting.add(wait);
		try {
			LockHold hold = this.acquirer.take(entry, key, kind, this.applicationName, waitTime, deadline, owner);
			if (owner != null && !(kind instanceof LockNodeKind.Permit)) {
				entry.holds.put(owner, hold);
			}
			acquired = true;
			return new AcquiredLock(this, entry, hold);
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
			this.waiting.remove(wait);
			if (!acquired) {
				this.entries.dispose(entry);
			}
		}
	}

	/**
	 * Releases one acquisition; the last one sharing a hold hands its lock node to a
	 * waiting thread of this process, or sends its deletion to ZooKeeper without waiting
	 * for the reply. The interrupt that the lost-lock policy gave the holder ends here;
	 * any other interrupt of the thread stays set.
	 */
	void release(LockEntry entry, LockHold hold) {
		if (!hold.exit()) {
			if (hold.onlyDelayedLeft()) {
				leaveThread(entry, hold);
			}
			this.entries.dispose(entry);
			return;
		}
		try {
			long checkedAt = this.lossDetector.doubts();
			boolean handOff = isHeld(hold);
			// the policy may interrupt the holder until its hold ends, from the check
			// above
			// too, and never afterwards
			if (end(entry, hold) && hold.holder() == Thread.currentThread()) {
				Thread.interrupted();
			}
			QueuedNode released = this.acquirer.giveBack(entry, hold, handOff, checkedAt);
			if (released != null) {
				this.queueTurns.leave(released, hold.key());
			}
		}
		finally {
			this.entries.dispose(entry);
		}
	}

	/**
	 * Releases an acquisition after a delay, without waiting for ZooKeeper to confirm the
	 * deletion of its node. A thread whose last acquisition of its hold this is leaves
	 * the hold now: its later acquisitions of the key queue like any other's.
	 * @return a stage that completes once the release is done
	 */
	CompletableFuture<Void> releaseAfter(LockEntry entry, LockHold hold, Duration delay) {
		hold.delayExit();
		if (hold.onlyDelayedLeft()) {
			leaveThread(entry, hold);
		}
		CompletableFuture<Void> released = new CompletableFuture<>();
		try {
			scheduleRelease(entry, hold, delay, released);
		}
		catch (RejectedExecutionException ex) {
			logger.debug("Lock '" + AbbreviatedKey.of(hold.key())
					+ "' stays held until the ZooKeeper session ends: its registry closed "
					+ "before its delayed release was scheduled");
		}
		return released;
	}

	private void scheduleRelease(LockEntry entry, LockHold hold, Duration delay, CompletableFuture<Void> released) {
		this.scheduler.schedule(() -> {
			try {
				if (hold.exitDelayed()) {
					long checkedAt = this.lossDetector.doubts();
					boolean handOff = isHeld(hold);
					end(entry, hold);
					QueuedNode node = this.acquirer.giveBack(entry, hold, handOff, checkedAt);
					if (node != null) {
						this.queueTurns.abandon(entry.queue, node, hold.key());
					}
				}
			}
			finally {
				this.entries.dispose(entry);
				released.complete(null);
			}
		}, ((delay.compareTo(LONGEST_WAIT) > 0) ? LONGEST_WAIT : delay).toNanos(), TimeUnit.NANOSECONDS);
	}

	/**
	 * The holding thread is done with a hold that stays held until delayed releases end:
	 * it no longer re-enters it, and the lost-lock policy no longer interrupts it.
	 */
	private void leaveThread(LockEntry entry, LockHold hold) {
		Thread holder = hold.holder();
		if (holder != null) {
			entry.holds.remove(holder, hold);
			if (hold.end() && holder == Thread.currentThread()) {
				Thread.interrupted();
			}
		}
	}

	/**
	 * Ends a hold whose last acquisition was released.
	 * @return whether its holder was interrupted because the lock was lost
	 */
	private boolean end(LockEntry entry, LockHold hold) {
		boolean holderInterrupted = hold.end();
		if (hold.holder() != null) {
			entry.holds.remove(hold.holder(), hold);
		}
		this.lossDetector.unregister(hold);
		return holderInterrupted;
	}

	/**
	 * The entry of a key, if it is in use, without counting it as used again: an entry
	 * that the calling thread holds an acquisition of stays until that is released.
	 * @param key the lock key
	 * @return the key's entry, or {@code null} if the key is not in use
	 */
	@Nullable LockEntry entryOf(String key) {
		return this.entries.find(key);
	}

	boolean isHeld(LockHold hold) {
		return this.lossDetector.isHeld(hold);
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
	 * Stops watching the client's connection and the background thread that enforces
	 * deadlines and detects pauses. The client stays open: it belongs to its owner.
	 * Afterwards, acquisitions fail, releases delete their nodes in the background, and
	 * delayed releases not yet done never happen: the end of the client's session deletes
	 * their nodes.
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
		return this.lossDetector.holds().stream().map(LockActivity::held).toList();
	}

	/**
	 * The locks this process waits for now.
	 * @return the awaited locks
	 */
	public List<LockActivity> waitingLocks() {
		return this.waiting.stream().map(LockWait::activity).toList();
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
		String path = pathOf(key);
		try {
			return QueueInspector.nodesOf(this.client, path);
		}
		catch (Exception ex) {
			throw new IllegalStateException(
					"Could not read the lock queue of '" + AbbreviatedKey.of(key) + "' from ZooKeeper: " + ex, ex);
		}
	}

	/**
	 * Number of keys whose lock is held or waited for in this process.
	 * @return the number of keys in use
	 */
	public int keysInUse() {
		return this.entries.inUse();
	}

}
