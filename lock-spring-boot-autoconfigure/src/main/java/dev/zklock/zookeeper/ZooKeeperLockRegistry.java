package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.Locale;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockException;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.common.PathUtils;
import dev.zklock.zookeeper.LockQueue.QueuedNode;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

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
 * An acquisition completes only when the lock node belongs to the client's current
 * session. A hold stays valid while that session provably lasts: what happens when the
 * connection is suspended or lost, or the process pauses, is the {@link LostLockPolicy}'s
 * choice.
 */
public class ZooKeeperLockRegistry implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(ZooKeeperLockRegistry.class);

	/**
	 * How long past its deadline an acquisition may take to finish its last ZooKeeper
	 * round trip (Curator deletes a waiter's node after the wait) before it is cut short.
	 */
	static final Duration ACQUISITION_GRACE = Duration.ofMillis(250);

	/**
	 * How long a release waits for ZooKeeper to confirm the deletion of the lock node
	 * before leaving it to Curator's background deletion.
	 */
	static final Duration RELEASE_TIMEOUT = Duration.ofSeconds(1);

	private final CuratorFramework client;

	private final String rootPath;

	private final ConcurrentMap<String, LockEntry> entries = new ConcurrentHashMap<>();

	private final ScheduledThreadPoolExecutor scheduler;

	private final OverdueInterrupter overdueInterrupter;

	private final LockLossDetector lossDetector;

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
	 * Creates a registry of locks under the root path.
	 * @param client the Curator client; started by its owner
	 * @param rootPath the ZooKeeper path under which the lock nodes live, such as
	 * {@code /locks}
	 * @param lostLockPolicy what counts as losing a held lock, and what happens to its
	 * holder then
	 */
	public ZooKeeperLockRegistry(CuratorFramework client, String rootPath, LostLockPolicy lostLockPolicy) {
		Assert.notNull(client, "'client' must not be null");
		Assert.notNull(lostLockPolicy, "'lostLockPolicy' must not be null");
		this.client = client;
		this.rootPath = validateRootPath(rootPath);
		this.scheduler = new ScheduledThreadPoolExecutor(1, (task) -> {
			Thread thread = new Thread(task, "zklock-registry");
			thread.setDaemon(true);
			return thread;
		});
		this.scheduler.setRemoveOnCancelPolicy(true);
		this.overdueInterrupter = new OverdueInterrupter(this.scheduler);
		this.lossDetector = new LockLossDetector(client, lostLockPolicy, this.scheduler);
	}

	private static String validateRootPath(String rootPath) {
		Assert.notNull(rootPath, "Lock root path must not be null");
		try {
			PathUtils.validatePath(rootPath);
		}
		catch (IllegalArgumentException ex) {
			throw new IllegalArgumentException(
					"Lock root path '" + rootPath + "' is not a valid ZooKeeper path: " + ex.getMessage(), ex);
		}
		Assert.isTrue(!rootPath.equals("/"), "Lock root path must name a node such as '/locks', not '/'");
		return rootPath;
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
		Assert.hasLength(key, "Lock key must not be empty");
		return ZKPaths.makePath(this.rootPath, LockNodeNames.nodeName(key));
	}

	/**
	 * Acquires the exclusive lock for the key, waiting at most the wait time, all
	 * included: waiting for a ZooKeeper connection and for other holders.
	 * @param key the lock key
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once
	 * @return the acquisition, to be released by the calling thread
	 * @throws LockTimeoutException if another holder kept the lock for the wait time
	 * @throws LockAcquisitionException if ZooKeeper could not be reached within the wait
	 * time, failed, or the thread was interrupted (its interrupt flag stays set)
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
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once
	 * @return the acquisition, to be released by the calling thread
	 * @throws LockTimeoutException if other holders kept the lock for the wait time
	 * @throws LockAcquisitionException if ZooKeeper could not be reached within the wait
	 * time, failed, other holders use the key as another type of lock, or the thread was
	 * interrupted (its interrupt flag stays set)
	 * @throws IllegalStateException if the thread holds the key's read lock and asks for
	 * its write or exclusive lock, which would deadlock
	 */
	public AcquiredLock acquire(String key, LockType type, int permits, Duration waitTime) {
		LockNodeKind kind = kindOf(type, permits);
		long deadline = System.nanoTime() + waitTime.toNanos();
		LockEntry entry = retain(pathOf(key));
		LockHold current = (kind instanceof LockNodeKind.Permit) ? null : entry.holds.get(Thread.currentThread());
		if (current != null) {
			if (kind == LockNodeKind.EXCLUSIVE && current.kind() == LockNodeKind.SHARED) {
				dispose(entry);
				throw new IllegalStateException("The current thread holds the read lock of '" + key
						+ "' and asks for its " + type.name().toLowerCase(Locale.ROOT)
						+ " lock: that upgrade would wait for itself; release the read lock first");
			}
			current.enter();
			return new AcquiredLock(this, entry, current);
		}
		boolean acquired = false;
		try {
			LockHold hold = acquireInCurrentSession(entry, key, kind, waitTime, deadline);
			acquired = true;
			return new AcquiredLock(this, entry, hold);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(key, "Interrupted while acquiring lock '" + key + "'", ex);
		}
		catch (LockException ex) {
			throw ex;
		}
		catch (LockNodeKind.ConflictException ex) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + key + "': " + ex.getMessage(), ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + key + "': " + ex, ex);
		}
		finally {
			if (!acquired) {
				dispose(entry);
			}
		}
	}

	private static LockNodeKind kindOf(LockType type, int permits) {
		Assert.notNull(type, "'type' must not be null");
		Assert.isTrue(permits == 1 || type == LockType.SEMAPHORE,
				() -> "Permits apply to semaphores only, but were " + permits + " for a " + type + " lock");
		return switch (type) {
			case EXCLUSIVE, WRITE -> LockNodeKind.EXCLUSIVE;
			case READ -> LockNodeKind.SHARED;
			case SEMAPHORE -> {
				Assert.isTrue(permits >= 1, () -> "Permits must be at least 1, but were " + permits);
				yield LockNodeKind.permit(permits);
			}
		};
	}

	/**
	 * Waits for the lock node's turn and checks that the node belongs to the current
	 * session: a waiter whose session ended while it waited holds nothing, and queues
	 * again if the wait time allows.
	 */
	private LockHold acquireInCurrentSession(LockEntry entry, String key, LockNodeKind kind, Duration waitTime,
			long deadline) throws Exception {
		while (true) {
			awaitConnection(key, waitTime, deadline);
			QueuedNode node = takeTurnBefore(deadline, entry, key, kind, waitTime);
			if (node == null) {
				throw new LockTimeoutException(key, waitTime);
			}
			LockHold hold = new LockHold(key, node, Thread.currentThread());
			this.lossDetector.register(hold);
			if (hold.sessionId() == this.lossDetector.currentSessionId()
					&& this.client.getZookeeperClient().isConnected()) {
				if (!(kind instanceof LockNodeKind.Permit)) {
					entry.holds.put(hold.holder(), hold);
				}
				return hold;
			}
			this.lossDetector.unregister(hold);
			abandon(entry, node, key);
			if (System.nanoTime() - deadline >= 0) {
				throw new LockAcquisitionException(key, "Could not acquire lock '" + key + "' within "
						+ waitTime.toMillis() + "ms: the ZooKeeper session that queued for it ended", null);
			}
			logger.debug("The ZooKeeper session that queued for lock '" + key + "' ended; queueing again");
		}
	}

	private void awaitConnection(String key, Duration waitTime, long deadline) throws InterruptedException {
		if (this.client.getZookeeperClient().isConnected()) {
			return;
		}
		long remaining = deadline - System.nanoTime();
		if (remaining <= 0 || !this.client
			.blockUntilConnected((int) Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining)), TimeUnit.MILLISECONDS)) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + key + "': no connection to ZooKeeper ("
					+ connectString() + ") within " + waitTime.toMillis() + "ms", null);
		}
	}

	/**
	 * Enqueues a lock node and waits for its turn, interrupting the work if ZooKeeper
	 * keeps it from ending by the deadline (plus a grace for the last round trip). A node
	 * whose turn did not come is deleted.
	 * @return the node whose turn came, or {@code null} if other holders kept the lock
	 */
	private @Nullable QueuedNode takeTurnBefore(long deadline, LockEntry entry, String key, LockNodeKind kind,
			Duration waitTime) throws Exception {
		OverdueInterrupter.Watch watch = this.overdueInterrupter.watch(deadline + ACQUISITION_GRACE.toNanos());
		QueuedNode node = null;
		boolean turnCame = false;
		Exception failure = null;
		try {
			node = entry.queue.enqueue(kind);
			turnCame = entry.queue.awaitTurn(node, deadline);
		}
		catch (Exception ex) {
			failure = ex;
		}
		if (node != null && !turnCame) {
			abandon(entry, node, key);
		}
		boolean overdue = watch.end();
		if (failure == null) {
			return turnCame ? node : null;
		}
		if (failure instanceof KeeperException.NoNodeException vanished) {
			return retryAfterSessionEnded(deadline, entry, key, kind, waitTime, vanished);
		}
		if (overdue) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + key + "' within " + waitTime.toMillis()
					+ "ms: ZooKeeper (" + connectString() + ") did not answer in time", failure);
		}
		throw failure;
	}

	/**
	 * A lock node vanished while it waited: ZooKeeper ended the session that created it.
	 * Queue again in the new session, within the same deadline.
	 */
	private @Nullable QueuedNode retryAfterSessionEnded(long deadline, LockEntry entry, String key, LockNodeKind kind,
			Duration waitTime, KeeperException.NoNodeException ex) throws Exception {
		if (System.nanoTime() - deadline >= 0) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + key + "' within " + waitTime.toMillis()
					+ "ms: the ZooKeeper session that queued for it ended", ex);
		}
		logger.debug("The lock node of '" + key + "' vanished while it waited; queueing again", ex);
		awaitConnection(key, waitTime, deadline);
		return takeTurnBefore(deadline, entry, key, kind, waitTime);
	}

	/**
	 * Releases one acquisition. An interrupted thread releases like any other: its
	 * interrupt is set aside while ZooKeeper deletes the node, and restored afterwards,
	 * unless it came from the lost-lock policy.
	 */
	void release(LockEntry entry, LockHold hold) {
		if (!hold.exit()) {
			dispose(entry);
			return;
		}
		boolean interrupted = Thread.interrupted();
		try {
			if (hold.end()) {
				interrupted = false;
			}
			entry.holds.remove(hold.holder(), hold);
			this.lossDetector.unregister(hold);
			OverdueInterrupter.Watch watch = this.overdueInterrupter
				.watch(System.nanoTime() + RELEASE_TIMEOUT.toNanos());
			leaveQuietly(entry, hold.node(), hold.key());
			watch.end();
		}
		finally {
			dispose(entry);
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void abandon(LockEntry entry, QueuedNode node, String key) {
		try {
			entry.queue.abandon(node);
		}
		catch (Exception ex) {
			logger.warn("Could not start deleting the lock node of '" + key + "' (" + node.path()
					+ "); ZooKeeper deletes it when the session ends", ex);
		}
	}

	private void leaveQuietly(LockEntry entry, QueuedNode node, String key) {
		try {
			entry.queue.leave(node);
		}
		catch (Exception ex) {
			logger.warn("Could not confirm the release of lock '" + key + "' with ZooKeeper (" + connectString()
					+ "); Curator keeps deleting its node in the background, and ZooKeeper deletes it when the "
					+ "session ends", ex);
		}
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

	private String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

	/**
	 * Stops watching the client's connection and the background thread that enforces
	 * deadlines and detects pauses. The client stays open: it belongs to its owner.
	 */
	@Override
	public void close() {
		this.lossDetector.close();
		this.scheduler.shutdownNow();
	}

	private LockEntry retain(String path) {
		return this.entries.compute(path, (p, entry) -> {
			LockEntry retained = (entry != null) ? entry : new LockEntry(new LockQueue(this.client, p));
			retained.users++;
			return retained;
		});
	}

	private void dispose(LockEntry entry) {
		this.entries.computeIfPresent(entry.queue.keyPath(), (path, current) -> (--current.users > 0) ? current : null);
	}

	/**
	 * Number of keys whose lock is held or waited for in this process.
	 * @return the number of keys in use
	 */
	public int keysInUse() {
		return this.entries.size();
	}

	/**
	 * A key's lock queue, the holds of this process's threads, and the number of
	 * acquisitions that use it (holding or waiting); the count is guarded by the entry
	 * map.
	 */
	static final class LockEntry {

		final LockQueue queue;

		final ConcurrentMap<Thread, LockHold> holds = new ConcurrentHashMap<>();

		int users;

		LockEntry(LockQueue queue) {
			this.queue = queue;
		}

	}

}
