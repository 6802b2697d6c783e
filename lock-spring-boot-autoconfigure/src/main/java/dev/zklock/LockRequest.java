package dev.zklock;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.util.Assert;

/**
 * A lock to acquire through {@link LockTemplate#execute(LockRequest, LockCallback)}: a
 * key, a {@link LockType}, and optionally a wait time.
 *
 * <pre class="code">
 * lockTemplate.execute(LockRequest.read("catalog"), (lock) -&gt; catalog.snapshot());
 * lockTemplate.execute(LockRequest.semaphore("exports", 4).withWaitTime(Duration.ofSeconds(30)), (lock) -&gt; export());
 * </pre>
 *
 * @param key the lock key: any non-blank string
 * @param type what the lock lets other holders do meanwhile
 * @param permits the number of permits of a {@link LockType#SEMAPHORE}; {@code 1} for the
 * other types
 * @param waitTime how long to wait, or {@code null} for the template's default
 */
public record LockRequest(String key, LockType type, int permits, @Nullable Duration waitTime) {

	/**
	 * Creates a request.
	 * @param key the lock key: any non-blank string
	 * @param type what the lock lets other holders do meanwhile
	 * @param permits the number of permits of a semaphore; {@code 1} for other types
	 * @param waitTime how long to wait, or {@code null} for the template's default
	 */
	public LockRequest {
		Assert.isTrue(key != null && !key.isBlank(), "Lock key must not be null or blank");
		Assert.notNull(type, "'type' must not be null");
		Assert.isTrue(permits >= 1, () -> "Permits must be at least 1, but were " + permits);
		Assert.isTrue(permits == 1 || type == LockType.SEMAPHORE,
				() -> "Permits apply to semaphores only, but were " + permits + " for a " + type + " lock");
		Assert.isTrue(waitTime == null || !waitTime.isNegative(),
				() -> "Wait time must not be negative, but was " + waitTime);
	}

	/**
	 * An exclusive lock of the key.
	 * @param key the lock key
	 * @return the request
	 */
	public static LockRequest exclusive(String key) {
		return new LockRequest(key, LockType.EXCLUSIVE, 1, null);
	}

	/**
	 * The read side of the key's read/write lock.
	 * @param key the lock key
	 * @return the request
	 */
	public static LockRequest read(String key) {
		return new LockRequest(key, LockType.READ, 1, null);
	}

	/**
	 * The write side of the key's read/write lock.
	 * @param key the lock key
	 * @return the request
	 */
	public static LockRequest write(String key) {
		return new LockRequest(key, LockType.WRITE, 1, null);
	}

	/**
	 * One permit of the key's semaphore.
	 * @param key the lock key
	 * @param permits how many holders the semaphore admits at a time
	 * @return the request
	 */
	public static LockRequest semaphore(String key, int permits) {
		return new LockRequest(key, LockType.SEMAPHORE, permits, null);
	}

	/**
	 * This request with a wait time.
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once
	 * @return a new request
	 */
	public LockRequest withWaitTime(Duration waitTime) {
		Assert.notNull(waitTime, "'waitTime' must not be null");
		return new LockRequest(this.key, this.type, this.permits, waitTime);
	}

}
