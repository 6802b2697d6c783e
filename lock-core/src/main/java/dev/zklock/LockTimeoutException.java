package dev.zklock;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when a distributed lock could not be acquired within its wait time because
 * another holder kept it. The protected code did not run.
 */
public class LockTimeoutException extends LockException {

	/** The key of the lock that was not acquired. */
	private final String key;

	/** How long the caller waited. */
	private final Duration waitTime;

	/** Who held the lock when the wait ended, or {@code null} if unknown. */
	private final @Nullable String holder;

	/**
	 * Creates an exception for a lock that was not acquired in time.
	 * @param key the key of the lock
	 * @param waitTime how long the caller waited
	 */
	public LockTimeoutException(String key, Duration waitTime) {
		this(key, waitTime, null);
	}

	/**
	 * Creates an exception for a lock that was not acquired in time, naming its holder.
	 * @param key the key of the lock
	 * @param waitTime how long the caller waited
	 * @param holder who held the lock when the wait ended, such as
	 * {@code application 'orders', host web-1, pid 4242, thread 'exec-3'}, or
	 * {@code null} if unknown
	 */
	public LockTimeoutException(String key, Duration waitTime, @Nullable String holder) {
		super("Could not acquire lock '" + AbbreviatedKey.of(key) + "' within " + waitTime.toMillis()
				+ "ms: another holder kept it" + ((holder != null) ? " (" + holder + ")" : ""), null);
		this.key = key;
		this.waitTime = waitTime;
		this.holder = holder;
	}

	/**
	 * The key of the lock that was not acquired.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * Who held the lock when the wait ended.
	 * @return the holder's description, or {@code null} if unknown
	 */
	public @Nullable String getHolder() {
		return this.holder;
	}

	/**
	 * How long the caller waited.
	 * @return the wait time
	 */
	public Duration getWaitTime() {
		return this.waitTime;
	}

}
