package dev.zklock;

import java.time.Duration;

/**
 * Thrown when a distributed lock could not be acquired within its wait time because
 * another holder kept it. The protected code did not run.
 */
public class LockTimeoutException extends LockException {

	private final String key;

	private final Duration waitTime;

	/**
	 * Creates an exception for a lock that was not acquired in time.
	 * @param key the key of the lock
	 * @param waitTime how long the caller waited
	 */
	public LockTimeoutException(String key, Duration waitTime) {
		super("Could not acquire lock '" + key + "' within " + waitTime.toMillis() + "ms: another holder kept it",
				null);
		this.key = key;
		this.waitTime = waitTime;
	}

	/**
	 * The key of the lock that was not acquired.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * How long the caller waited.
	 * @return the wait time
	 */
	public Duration getWaitTime() {
		return this.waitTime;
	}

}
