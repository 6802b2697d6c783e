package dev.zklock;

/**
 * What a {@link DistributedLock} method does when its lock cannot be acquired: another
 * holder kept it for the whole wait time ({@link LockTimeoutException}), or ZooKeeper
 * could not be reached or failed ({@link LockAcquisitionException}). In no case does the
 * method run without its lock.
 *
 * @see DistributedLock#onFailure()
 * @see DistributedLock#fallback()
 * @see DistributedLock#failureHandler()
 */
public enum OnLockFailure {

	/**
	 * Throw the {@link LockException}.
	 */
	THROW,

	/**
	 * Skip the method: return {@code null}, {@code Optional.empty()} for an
	 * {@code Optional}, or nothing for {@code void}. A method returning a primitive
	 * cannot be skipped, which start-up reports.
	 */
	SKIP

}
