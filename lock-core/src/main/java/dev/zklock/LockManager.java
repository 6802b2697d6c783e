package dev.zklock;

import java.time.Duration;

/**
 * Acquires the locks that a {@link LockTemplate} runs its work under: the one thing the
 * template needs from a lock implementation, such as
 * {@code dev.zklock.zookeeper.ZooKeeperLockRegistry}.
 * <p>
 * Every wait time is bounded as a whole: waiting for a connection to the lock service and
 * for other holders included.
 */
public interface LockManager {

	/**
	 * The longest wait an acquisition bounds: about 146 years. A longer wait time, up to
	 * the largest {@link Duration}, waits this long, which is for all practical purposes
	 * without bound; the deadline of a wait stays within the {@link System#nanoTime()}
	 * arithmetic that compares it with the time.
	 */
	Duration LONGEST_WAIT = Duration.ofNanos(Long.MAX_VALUE / 2);

	/**
	 * Acquires a lock of the key for the calling thread, which may acquire it again while
	 * it holds it (the acquisitions share a fencing token), waiting at most the wait
	 * time.
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
	 * @throws LockAcquisitionException if the lock could not be acquired for another
	 * reason
	 * @throws IllegalArgumentException if the key is {@code null} or blank, the wait time
	 * {@code null} or negative, the type {@code null}, or the permits do not fit the type
	 */
	ReleasableLock acquire(String key, LockType type, int permits, Duration waitTime);

	/**
	 * Acquires a lock of the key that belongs to no thread: not reentrant, and released
	 * by whichever thread is done with it, now or later.
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
	 * @throws LockAcquisitionException if the lock could not be acquired for another
	 * reason
	 * @throws IllegalArgumentException if the key is {@code null} or blank, the wait time
	 * {@code null} or negative, the type {@code null}, or the permits do not fit the type
	 */
	ReleasableLock acquireDetached(String key, LockType type, int permits, Duration waitTime);

	/**
	 * Whether the loss of a lock while its holder worked is raised, as a
	 * {@link LockLostException}, once the work completes.
	 * @return whether losses are raised on completion
	 */
	boolean raisesLossOnCompletion();

}
