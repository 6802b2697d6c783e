package dev.zklock;

/**
 * A distributed lock held by the current code: what a holder needs to know about it.
 * <p>
 * Pass {@link #fencingToken()} to storage that is shared between holders, and let the
 * storage refuse writes carrying a lower token than one it has seen: a holder that was
 * paused or partitioned after its lock expired is then harmless.
 *
 * @see LockTemplate
 */
public interface LockHandle {

	/**
	 * The key the lock was taken for, as the caller gave it.
	 * @return the key
	 */
	String key();

	/**
	 * A number that is greater than every fencing token given before for the same key,
	 * across threads, processes and restarts of the lock's ZooKeeper node, for as long as
	 * the ZooKeeper ensemble keeps its data: the creation zxid of the hold's lock node,
	 * followed by the number of holders of this process that had the node before (a
	 * thread that takes a lock over from another thread of its process gets a greater
	 * token than its predecessor's). Reentrant acquisitions by the holder share the token
	 * of the outermost acquisition. Readers of different processes that hold a read lock
	 * at the same time are ordered against the writers before and after them, not against
	 * each other.
	 * @return the fencing token of this hold
	 */
	long fencingToken();

	/**
	 * Whether the lock is still held as far as this process can tell: {@code false} once
	 * it has been released, and once the ZooKeeper connection was suspended or lost
	 * during the hold, since another process may then have taken the lock.
	 * @return whether the lock is still held
	 */
	boolean isValid();

	/**
	 * The innermost lock the calling thread holds through {@code @DistributedLock} or
	 * {@link LockTemplate}.
	 * @return the innermost held lock
	 * @throws IllegalStateException if the calling thread holds no lock
	 */
	static LockHandle current() {
		return (LockHandle) CurrentLocks.innermost();
	}

}
