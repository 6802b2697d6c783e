package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockException;
import dev.zklock.LockTimeoutException;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.common.PathUtils;
import org.apache.zookeeper.data.Stat;

import org.springframework.util.Assert;

/**
 * Acquires and releases ZooKeeper locks by key, one Curator {@link InterProcessMutex} per
 * key under a root path.
 * <p>
 * A key's mutex is shared by every thread that holds or waits for it, which makes the
 * lock reentrant per thread, and dropped when no thread does, which keeps memory bounded
 * by the number of keys in use. Each key is one node directly under the root path (see
 * {@link LockNodeNames}); the key node is a container node that ZooKeeper removes once it
 * is empty.
 * <p>
 * A hold stays valid while the ZooKeeper connection stays up: once the connection is
 * suspended or lost, every hold taken before is reported invalid, since ZooKeeper may end
 * the session and hand the lock to another process.
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

	private final FencingLockDriver driver = new FencingLockDriver();

	private final ConcurrentMap<String, LockEntry> entries = new ConcurrentHashMap<>();

	private final AtomicLong connectionEpoch = new AtomicLong();

	private final OverdueInterrupter overdueInterrupter = new OverdueInterrupter();

	private final ConnectionStateListener connectionStateListener = (source, state) -> connectionStateChanged(state);

	/**
	 * Creates a registry of locks under the root path.
	 * @param client the Curator client; started by its owner
	 * @param rootPath the ZooKeeper path under which the lock nodes live, such as
	 * {@code /locks}
	 */
	public ZooKeeperLockRegistry(CuratorFramework client, String rootPath) {
		Assert.notNull(client, "'client' must not be null");
		this.client = client;
		this.rootPath = validateRootPath(rootPath);
		client.getConnectionStateListenable().addListener(this.connectionStateListener);
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
	 * Acquires the lock for the key, waiting at most the wait time, all included: waiting
	 * for a ZooKeeper connection and for other holders.
	 * @param key the lock key
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once
	 * @return the acquisition, to be released by the calling thread
	 * @throws LockTimeoutException if another holder kept the lock for the wait time
	 * @throws LockAcquisitionException if ZooKeeper could not be reached within the wait
	 * time, failed, or the thread was interrupted (its interrupt flag stays set)
	 */
	public AcquiredLock acquire(String key, Duration waitTime) {
		long deadline = System.nanoTime() + waitTime.toNanos();
		long epoch = this.connectionEpoch.get();
		LockEntry entry = retain(pathOf(key));
		boolean acquired = false;
		try {
			if (entry.mutex.isOwnedByCurrentThread()) {
				entry.mutex.acquire();
				acquired = true;
				return new AcquiredLock(this, entry, key, entry.fencingToken, entry.holdEpoch, false);
			}
			awaitConnection(key, waitTime, deadline);
			acquired = acquireBefore(deadline, entry, key, waitTime);
			if (!acquired) {
				throw new LockTimeoutException(key, waitTime);
			}
			entry.holdEpoch = epoch;
			return new AcquiredLock(this, entry, key, entry.fencingToken, epoch, true);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(key, "Interrupted while acquiring lock '" + key + "'", ex);
		}
		catch (LockException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + key + "': " + ex, ex);
		}
		finally {
			this.driver.takeCreatedNode();
			if (!acquired) {
				dispose(entry);
			}
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
	 * Acquires the mutex and reads the fencing token, interrupting the work if ZooKeeper
	 * keeps it from ending by the deadline (plus a grace for the last round trip).
	 */
	private boolean acquireBefore(long deadline, LockEntry entry, String key, Duration waitTime) throws Exception {
		OverdueInterrupter.Watch watch = this.overdueInterrupter.watch(deadline + ACQUISITION_GRACE.toNanos());
		boolean acquired = false;
		try {
			acquired = entry.mutex.acquire(Math.max(0, deadline - System.nanoTime()), TimeUnit.NANOSECONDS);
			if (acquired) {
				entry.fencingToken = fencingTokenOfCreatedNode();
			}
		}
		catch (Exception ex) {
			if (acquired) {
				releaseQuietly(entry, key);
			}
			if (watch.end()) {
				throw new LockAcquisitionException(key, "Could not acquire lock '" + key + "' within "
						+ waitTime.toMillis() + "ms: ZooKeeper (" + connectString() + ") did not answer in time", ex);
			}
			throw ex;
		}
		watch.end();
		return acquired;
	}

	private long fencingTokenOfCreatedNode() throws Exception {
		FencingLockDriver.CreatedLockNode created = this.driver.takeCreatedNode();
		Assert.state(created != null, "No lock node was created");
		if (created.stat().getCzxid() != 0) {
			return created.stat().getCzxid();
		}
		Stat stat = this.client.checkExists().forPath(created.path());
		Assert.state(stat != null, () -> "Lock node " + created.path() + " vanished while held");
		return stat.getCzxid();
	}

	/**
	 * Releases one acquisition. An interrupted thread releases like any other: its
	 * interrupt is set aside while ZooKeeper deletes the node, and restored afterwards.
	 */
	void release(LockEntry entry, String key, boolean outermost) {
		boolean interrupted = Thread.interrupted();
		try {
			if (outermost) {
				OverdueInterrupter.Watch watch = this.overdueInterrupter
					.watch(System.nanoTime() + RELEASE_TIMEOUT.toNanos());
				releaseQuietly(entry, key);
				watch.end();
			}
			else {
				releaseQuietly(entry, key);
			}
		}
		finally {
			dispose(entry);
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	private void releaseQuietly(LockEntry entry, String key) {
		try {
			entry.mutex.release();
		}
		catch (Exception ex) {
			logger.warn("Could not confirm the release of lock '" + key + "' with ZooKeeper (" + connectString()
					+ "); Curator keeps deleting its node in the background, and ZooKeeper deletes it when the "
					+ "session ends", ex);
		}
	}

	private String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

	/**
	 * Stops watching the client's connection and the background thread that enforces
	 * deadlines. The client stays open: it belongs to its owner.
	 */
	@Override
	public void close() {
		this.client.getConnectionStateListenable().removeListener(this.connectionStateListener);
		this.overdueInterrupter.close();
	}

	long connectionEpoch() {
		return this.connectionEpoch.get();
	}

	private void connectionStateChanged(ConnectionState state) {
		if (state == ConnectionState.SUSPENDED || state == ConnectionState.LOST) {
			this.connectionEpoch.incrementAndGet();
		}
	}

	private LockEntry retain(String path) {
		return this.entries.compute(path, (p, entry) -> {
			LockEntry retained = (entry != null) ? entry
					: new LockEntry(p, new InterProcessMutex(this.client, p, this.driver));
			retained.users++;
			return retained;
		});
	}

	private void dispose(LockEntry entry) {
		this.entries.computeIfPresent(entry.path, (path, current) -> (--current.users > 0) ? current : null);
	}

	/**
	 * Number of keys whose lock is held or waited for in this process.
	 * @return the number of keys in use
	 */
	public int keysInUse() {
		return this.entries.size();
	}

	/**
	 * A key's mutex with the number of threads using it; guarded by the entry map.
	 */
	static final class LockEntry {

		final String path;

		final InterProcessMutex mutex;

		int users;

		volatile long fencingToken;

		volatile long holdEpoch;

		LockEntry(String path, InterProcessMutex mutex) {
			this.path = path;
			this.mutex = mutex;
		}

	}

}
