package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockAcquisitionException;
import dev.zklock.LockHandle;
import dev.zklock.LockManager;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.ReleasableLock;

/**
 * A {@link Lock} view of one key's exclusive ZooKeeper lock, for code written against
 * {@code java.util.concurrent}. It shares its registry's holds with
 * {@code @DistributedLock} and {@link dev.zklock.LockTemplate}, so a thread re-enters the
 * key through any of them. Every view of a key that its registry hands out is the same
 * lock: a thread may lock through one view and unlock through another, and the views of a
 * key from one registry are {@link #equals(Object) equal}, so that a key's lock is one
 * element of a set or one key of a map however often it was obtained. Like
 * {@code ReentrantLock}, it must be unlocked by the thread that locked it, once per lock.
 * {@link #handle()} gives the holding thread its fencing token and the lock's validity.
 *
 * @see ZooKeeperLockRegistry#obtain(String)
 */
public final class ZooKeeperLock implements Lock {

	/**
	 * How long {@link #lock()} and {@link #lockInterruptibly()} wait: for all practical
	 * purposes, until the lock is free and ZooKeeper answers.
	 */
	private static final Duration UNTIL_ACQUIRED = Duration.ofDays(3650);

	/**
	 * The acquisitions that the current thread holds through views, by the lock they view
	 * (views of one key from one registry are equal), latest first. A thread's entry goes
	 * once it holds none, and the thread's map with its last entry.
	 */
	private static final ThreadLocal<Map<ZooKeeperLock, Deque<ReleasableLock>>> HELD = new ThreadLocal<>();

	private final LockManager registry;

	private final String key;

	ZooKeeperLock(LockManager registry, String key) {
		if (key == null || key.isBlank()) {
			throw new IllegalArgumentException("Lock key must not be null or blank");
		}
		this.registry = registry;
		this.key = key;
	}

	/**
	 * Acquires the lock, waiting as long as it takes: for other holders, and for
	 * ZooKeeper when it cannot be reached. An interrupt does not end the wait; the thread
	 * is still interrupted when this returns.
	 */
	@Override
	public void lock() {
		boolean interrupted = false;
		while (true) {
			try {
				lockInterruptibly();
				break;
			}
			catch (InterruptedException ex) {
				interrupted = true;
			}
		}
		if (interrupted) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Acquires the lock, waiting as long as it takes unless the thread is interrupted.
	 * @throws InterruptedException if the thread was interrupted before or while waiting
	 */
	@Override
	public void lockInterruptibly() throws InterruptedException {
		if (!tryLock(UNTIL_ACQUIRED.toNanos(), TimeUnit.NANOSECONDS)) {
			throw new IllegalStateException(
					"Lock '" + AbbreviatedKey.of(this.key) + "' was not acquired in " + UNTIL_ACQUIRED);
		}
	}

	/**
	 * Acquires the lock if no other holder has it now. As with
	 * {@link java.util.concurrent.locks.ReentrantLock#tryLock()}, an interrupt does not
	 * end the try; the thread is still interrupted when this returns.
	 * @throws LockAcquisitionException if ZooKeeper could not be reached or failed
	 */
	@Override
	public boolean tryLock() {
		boolean interrupted = Thread.interrupted();
		try {
			while (true) {
				try {
					hold(this.registry.acquire(this.key, LockType.EXCLUSIVE, 1, Duration.ZERO));
					return true;
				}
				catch (LockTimeoutException ex) {
					return false;
				}
				catch (LockAcquisitionException ex) {
					if (!(ex.getCause() instanceof InterruptedException)) {
						throw ex;
					}
					interrupted = true;
					Thread.interrupted();
				}
			}
		}
		finally {
			if (interrupted) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Acquires the lock if it becomes free within the wait time.
	 * @param time the wait time; zero or less tries once, as {@link #tryLock()} does
	 * @throws LockAcquisitionException if ZooKeeper could not be reached within the wait
	 * time or failed
	 * @throws IllegalArgumentException if the unit is {@code null}
	 */
	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		if (unit == null) {
			throw new IllegalArgumentException("'unit' must not be null");
		}
		if (Thread.interrupted()) {
			throw new InterruptedException("Interrupted before acquiring lock '" + AbbreviatedKey.of(this.key) + "'");
		}
		try {
			hold(this.registry.acquire(this.key, LockType.EXCLUSIVE, 1,
					Duration.ofNanos(Math.max(0, unit.toNanos(time)))));
			return true;
		}
		catch (LockTimeoutException ex) {
			return false;
		}
		catch (LockAcquisitionException ex) {
			if (ex.getCause() instanceof InterruptedException interrupted) {
				Thread.interrupted();
				throw interrupted;
			}
			throw ex;
		}
	}

	/**
	 * Releases the calling thread's latest acquisition of the lock through any view of
	 * the key.
	 * @throws IllegalMonitorStateException if the calling thread does not hold the lock
	 * through any view of the key
	 */
	@Override
	public void unlock() {
		Map<ZooKeeperLock, Deque<ReleasableLock>> held = HELD.get();
		Deque<ReleasableLock> acquired = (held != null) ? held.get(this) : null;
		if (acquired == null) {
			throw notHeldByCurrentThread();
		}
		ReleasableLock latest = acquired.pop();
		if (acquired.isEmpty()) {
			held.remove(this);
			if (held.isEmpty()) {
				HELD.remove();
			}
		}
		latest.release();
	}

	/**
	 * The calling thread's hold of this lock through the views of its key: the key, the
	 * fencing token to pass to shared storage, and whether the lock is still held. It
	 * describes the thread's outermost acquisition through a view, whose token its
	 * reentrant acquisitions share; it may be kept and read from any thread, and turns
	 * invalid once that acquisition is unlocked or the lock is lost.
	 * @return the handle of the calling thread's hold
	 * @throws IllegalMonitorStateException if the calling thread does not hold the lock
	 * through any view of the key
	 */
	public LockHandle handle() {
		Map<ZooKeeperLock, Deque<ReleasableLock>> held = HELD.get();
		Deque<ReleasableLock> acquired = (held != null) ? held.get(this) : null;
		if (acquired == null) {
			throw notHeldByCurrentThread();
		}
		return acquired.peekLast();
	}

	/**
	 * Not supported: a distributed lock has no conditions to wait on.
	 * @throws UnsupportedOperationException always
	 */
	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException(
				"Lock '" + AbbreviatedKey.of(this.key) + "' is a distributed lock, which has no "
						+ "conditions: signal other processes through shared state instead (a ZooKeeper node or a "
						+ "database row) and poll it under the lock");
	}

	private IllegalMonitorStateException notHeldByCurrentThread() {
		return new IllegalMonitorStateException("The current thread does not hold lock '" + AbbreviatedKey.of(this.key)
				+ "' through any Lock view of its registry");
	}

	/**
	 * Records an acquisition of the calling thread, shared by every view of the key; only
	 * once it succeeded, so that a thread whose attempts fail is never kept.
	 */
	private void hold(ReleasableLock acquired) {
		Map<ZooKeeperLock, Deque<ReleasableLock>> held = HELD.get();
		if (held == null) {
			held = new HashMap<>();
			HELD.set(held);
		}
		held.computeIfAbsent(this, (view) -> new ArrayDeque<>()).push(acquired);
	}

	/**
	 * Whether the other object is a view of the same lock: of the same key, from the same
	 * registry.
	 */
	@Override
	public boolean equals(Object other) {
		return (other instanceof ZooKeeperLock that) && this.registry == that.registry && this.key.equals(that.key);
	}

	/**
	 * A hash code consistent with {@link #equals(Object)}: the same for every view of a
	 * key from one registry.
	 */
	@Override
	public int hashCode() {
		return 31 * System.identityHashCode(this.registry) + this.key.hashCode();
	}

	@Override
	public String toString() {
		return "ZooKeeperLock[key=" + this.key + "]";
	}

}
