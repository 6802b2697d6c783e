package dev.zklock.test;

import java.util.concurrent.atomic.AtomicBoolean;

import dev.zklock.LockHandle;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;

/**
 * A lock key that an {@link OtherProcess} holds until this is closed.
 */
public final class HeldKey implements LockHandle, AutoCloseable {

	private final AcquiredLock lock;

	private final ZooKeeperLockRegistry registry;

	private final AtomicBoolean closed = new AtomicBoolean();

	HeldKey(AcquiredLock lock, ZooKeeperLockRegistry registry) {
		this.lock = lock;
		this.registry = registry;
	}

	@Override
	public String key() {
		return this.lock.key();
	}

	@Override
	public long fencingToken() {
		return this.lock.fencingToken();
	}

	@Override
	public boolean isValid() {
		return this.lock.isValid();
	}

	/**
	 * Releases the key, and returns once ZooKeeper has applied the release: the
	 * application finds the key free from then on. Later calls do nothing more.
	 * @throws IllegalStateException if ZooKeeper could not be reached to confirm the
	 * release (its session's end releases the key anyway)
	 */
	@Override
	public void close() {
		if (this.closed.compareAndSet(false, true)) {
			this.lock.release();
			// ZooKeeper applies a session's requests in order: this read comes after the
			// deletion that the release sent without waiting
			this.registry.queueOf(key());
		}
	}

	@Override
	public String toString() {
		return "HeldKey[key=" + key() + ", fencingToken=" + fencingToken() + "]";
	}

}
