package dev.zklock;

/**
 * What a distributed lock lets other holders of the same key do meanwhile.
 * <p>
 * Read and write locks of one key form a read/write lock: many readers or one writer. A
 * thread that holds the write lock may take the read lock too (a downgrade); the lock
 * then stays exclusive until the thread's last hold of the key ends. A thread that holds
 * only the read lock is refused the write lock with an {@link IllegalStateException} (an
 * upgrade would deadlock with the other readers).
 *
 * @see LockRequest#type()
 * @see LockRequest
 */
public enum LockType {

	/** One holder at a time, excluding readers and writers too; the default. */
	EXCLUSIVE,

	/** Shared with other readers; excludes writers (and exclusive holders). */
	READ,

	/**
	 * The write side of a read/write lock: one holder at a time, like {@link #EXCLUSIVE},
	 * which it is the same lock as.
	 */
	WRITE,

	/**
	 * One of a number of permits: up to that many holders at a time. Every holder of the
	 * key must agree on the number; a disagreement fails the acquisition. Not reentrant:
	 * each acquisition takes a permit.
	 */
	SEMAPHORE

}
