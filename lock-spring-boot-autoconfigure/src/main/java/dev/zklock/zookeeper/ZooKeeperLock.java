package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.Lock;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockTimeoutException;

/**
 * A {@link Lock} view of one key's exclusive ZooKeeper lock, for code written against
 * {@code java.util.concurrent}. It shares its registry's holds with
 * {@link dev.zklock.DistributedLock} and {@link dev.zklock.LockTemplate}, so a thread
 * re-enters the key through any of them. Like {@code ReentrantLock}, it must be unlocked
 * by the thread that locked it, once per lock.
 *
 * @see ZooKeeperLockRegistry#obtain(String)
 */
public final class ZooKeeperLock implements Lock {

	/**
	 * How long {@link #lock()} and {@link #lockInterruptibly()} wait: for all practical
	 * purposes, until the lock is free and ZooKeeper answers.
	 */
	private static final Duration UNTIL_ACQUIRED = Duration.ofDays(3650);

	private final ZooKeeperLockRegistry registry;

	private final String key;

	private final Map<Thread, Deque<AcquiredLock>> heldByThread = new ConcurrentHashMap<>();

	ZooKeeperLock(ZooKeeperLockRegistry registry, String key) {
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
			throw new IllegalStateException("Lock '" + this.key + "' was not acquired in " + UNTIL_ACQUIRED);
		}
	}

	/**
	 * Acquires the lock if no other holder has it now.
	 * @return whether the lock was acquired
	 * @throws LockAcquisitionException if ZooKeeper could not be reached or failed
	 */
	@Override
	public boolean tryLock() {
		try {
			hold(this.registry.acquire(this.key, Duration.ZERO));
			return true;
		}
		catch (LockTimeoutException ex) {
			return false;
		}
	}

	/**
	 * Acquires the lock if it becomes free within the wait time.
	 * @param time the wait time
	 * @param unit the wait time's unit
	 * @return whether the lock was acquired
	 * @throws InterruptedException if the thread was interrupted before or while waiting
	 * @throws LockAcquisitionException if ZooKeeper could not be reached within the wait
	 * time or failed
	 */
	@Override
	public boolean tryLock(long time, TimeUnit unit) throws InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException("Interrupted before acquiring lock '" + this.key + "'");
		}
		try {
			hold(this.registry.acquire(this.key, Duration.ofNanos(Math.max(0, unit.toNanos(time)))));
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
	 * Releases the calling thread's latest acquisition of the lock.
	 * @throws IllegalMonitorStateException if the calling thread does not hold the lock
	 * through this view
	 */
	@Override
	public void unlock() {
		Deque<AcquiredLock> held = this.heldByThread.get(Thread.currentThread());
		if (held == null || held.isEmpty()) {
			throw new IllegalMonitorStateException(
					"The current thread does not hold lock '" + this.key + "' through this Lock");
		}
		AcquiredLock latest = held.pop();
		if (held.isEmpty()) {
			this.heldByThread.remove(Thread.currentThread());
		}
		latest.release();
	}

	/**
	 * Not supported: a distributed lock has no conditions to wait on.
	 * @return never
	 * @throws UnsupportedOperationException always
	 */
	@Override
	public Condition newCondition() {
		throw new UnsupportedOperationException("Lock '" + this.key + "' is a distributed lock, which has no "
				+ "conditions: signal other processes through shared state instead (a ZooKeeper node or a "
				+ "database row) and poll it under the lock");
	}

	/**
	 * Records an acquisition of the calling thread; only once it succeeded, so that a
	 * thread whose attempts fail is never kept in the map.
	 */
	private void hold(AcquiredLock acquired) {
		this.heldByThread.computeIfAbsent(Thread.currentThread(), (thread) -> new ArrayDeque<>()).push(acquired);
	}

	@Override
	public String toString() {
		return "ZooKeeperLock[key=" + this.key + "]";
	}

}
