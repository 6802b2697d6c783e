package dev.zklock;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a distributed lock could not be acquired for a reason other than another
 * holder keeping it: ZooKeeper unreachable within the wait time, a ZooKeeper error, or
 * the waiting thread being interrupted. The protected code did not run.
 */
public class LockAcquisitionException extends LockException {

	/** The key of the lock that could not be acquired. */
	private final String key;

	/**
	 * Creates an exception for a lock that could not be acquired.
	 * @param key the key of the lock
	 * @param message what went wrong
	 * @param cause the cause, or {@code null}
	 */
	public LockAcquisitionException(String key, String message, @Nullable Throwable cause) {
		super(message, cause);
		this.key = key;
	}

	/**
	 * The key of the lock that could not be acquired.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

}
