package dev.zklock.zookeeper;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.zklock.LockHandle;

/**
 * One acquisition of a ZooKeeper lock by the current thread, to be released once by the
 * same thread.
 */
public final class AcquiredLock implements LockHandle {

	private final ZooKeeperLockRegistry registry;

	private final ZooKeeperLockRegistry.LockEntry entry;

	private final String key;

	private final long fencingToken;

	private final long connectionEpoch;

	private final boolean outermost;

	private final AtomicBoolean released = new AtomicBoolean();

	AcquiredLock(ZooKeeperLockRegistry registry, ZooKeeperLockRegistry.LockEntry entry, String key, long fencingToken,
			long connectionEpoch, boolean outermost) {
		this.registry = registry;
		this.entry = entry;
		this.key = key;
		this.fencingToken = fencingToken;
		this.connectionEpoch = connectionEpoch;
		this.outermost = outermost;
	}

	@Override
	public String key() {
		return this.key;
	}

	@Override
	public long fencingToken() {
		return this.fencingToken;
	}

	@Override
	public boolean isValid() {
		return !this.released.get() && this.registry.connectionEpoch() == this.connectionEpoch;
	}

	/**
	 * Releases this acquisition; the ZooKeeper lock is released when the outermost
	 * acquisition of the thread is. Must be called by the thread that acquired the lock.
	 * Later calls do nothing. Never throws, and never waits long: a release that
	 * ZooKeeper does not confirm within a second is logged and left to Curator, which
	 * keeps deleting the lock node in the background (ZooKeeper deletes it anyway when
	 * the session ends).
	 */
	public void release() {
		if (this.released.compareAndSet(false, true)) {
			this.registry.release(this.entry, this.key, this.outermost);
		}
	}

	@Override
	public String toString() {
		return "AcquiredLock[key=" + this.key + ", fencingToken=" + this.fencingToken + "]";
	}

}
