package dev.zklock;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

/**
 * A lock to acquire through {@link LockTemplate#execute(LockRequest, LockCallback)}: a
 * key, a {@link LockType}, and optionally a wait time, a minimum hold time and a name.
 *
 * <pre class="code">
 * lockTemplate.execute(LockRequest.read("catalog"), (lock) -&gt; catalog.snapshot());
 * lockTemplate.execute(LockRequest.semaphore("exports", 4).withWaitTime(Duration.ofSeconds(30)), (lock) -&gt; export());
 * lockTemplate.execute(LockRequest.exclusive("invoice:" + id).withName("InvoiceBatch.close"), (lock) -&gt; close(id));
 * </pre>
 *
 * @param key the lock key: any non-blank string
 * @param type what the lock lets other holders do meanwhile
 * @param permits the number of permits of a {@link LockType#SEMAPHORE}; {@code 1} for the
 * other types
 * @param waitTime how long to wait, or {@code null} for the template's default
 * @param holdAtLeast how long the lock is kept at least, counted from its acquisition,
 * even when the work ends sooner; {@link Duration#ZERO} releases it when the work ends
 * @param name what the lock is called in metrics and other observations, or {@code null}
 * for {@value #UNNAMED}; unlike the key, it should be one of a few fixed values
 */
public record LockRequest(String key, LockType type, int permits, @Nullable Duration waitTime, Duration holdAtLeast,
		@Nullable String name) {

	/**
	 * The name in observations of a request that names none: a fixed value, never the
	 * key, since keys are unbounded and would make a metric series each.
	 */
	public static final String UNNAMED = "unnamed";

	/**
	 * Creates a request.
	 * @param key the lock key: any non-blank string
	 * @param type what the lock lets other holders do meanwhile
	 * @param permits the number of permits of a semaphore; {@code 1} for other types
	 * @param waitTime how long to wait, or {@code null} for the template's default
	 * @param holdAtLeast how long the lock is kept at least, counted from its acquisition
	 * @param name what the lock is called in observations, or {@code null} for
	 * {@value #UNNAMED}
	 */
	public LockRequest {
		if (key == null || key.isBlank()) {
			throw new IllegalArgumentException("Lock key must not be null or blank");
		}
		if (type == null) {
			throw new IllegalArgumentException("'type' must not be null");
		}
		if (permits < 1) {
			throw new IllegalArgumentException("Permits must be at least 1, but were " + permits);
		}
		if (permits != 1 && type != LockType.SEMAPHORE) {
			throw new IllegalArgumentException(
					"Permits apply to semaphores only, but were " + permits + " for a " + type + " lock");
		}
		if (waitTime != null && waitTime.isNegative()) {
			throw new IllegalArgumentException("Wait time must not be negative, but was " + waitTime);
		}
		if (holdAtLeast == null || holdAtLeast.isNegative()) {
			throw new IllegalArgumentException(
					"Hold-at-least time must not be null or negative, but was " + holdAtLeast);
		}
		if (name != null && name.isBlank()) {
			throw new IllegalArgumentException("Lock name must be null or not blank");
		}
	}

	/** Checks a wait time given where a request's cannot be {@code null}. */
	static void checkWaitTime(Duration waitTime) {
		if (waitTime == null) {
			throw new IllegalArgumentException("'waitTime' must not be null");
		}
		if (waitTime.isNegative()) {
			throw new IllegalArgumentException("Wait time must not be negative, but was " + waitTime);
		}
	}

	/**
	 * Creates a request without a name.
	 * @param key the lock key: any non-blank string
	 * @param type what the lock lets other holders do meanwhile
	 * @param permits the number of permits of a semaphore; {@code 1} for other types
	 * @param waitTime how long to wait, or {@code null} for the template's default
	 * @param holdAtLeast how long the lock is kept at least, counted from its acquisition
	 */
	public LockRequest(String key, LockType type, int permits, @Nullable Duration waitTime, Duration holdAtLeast) {
		this(key, type, permits, waitTime, holdAtLeast, null);
	}

	/**
	 * An exclusive lock of the key.
	 * @param key the lock key
	 * @return the request
	 */
	public static LockRequest exclusive(String key) {
		return new LockRequest(key, LockType.EXCLUSIVE, 1, null, Duration.ZERO);
	}

	/**
	 * The read side of the key's read/write lock.
	 * @param key the lock key
	 * @return the request
	 */
	public static LockRequest read(String key) {
		return new LockRequest(key, LockType.READ, 1, null, Duration.ZERO);
	}

	/**
	 * The write side of the key's read/write lock.
	 * @param key the lock key
	 * @return the request
	 */
	public static LockRequest write(String key) {
		return new LockRequest(key, LockType.WRITE, 1, null, Duration.ZERO);
	}

	/**
	 * One permit of the key's semaphore.
	 * @param key the lock key
	 * @param permits how many holders the semaphore admits at a time
	 * @return the request
	 */
	public static LockRequest semaphore(String key, int permits) {
		return new LockRequest(key, LockType.SEMAPHORE, permits, null, Duration.ZERO);
	}

	/**
	 * This request with a wait time.
	 * @param waitTime how long to wait; {@link Duration#ZERO} tries once
	 * @return a new request
	 */
	public LockRequest withWaitTime(Duration waitTime) {
		if (waitTime == null) {
			throw new IllegalArgumentException("'waitTime' must not be null");
		}
		return new LockRequest(this.key, this.type, this.permits, waitTime, this.holdAtLeast, this.name);
	}

	/**
	 * This request with a minimum hold time: the lock is kept at least this long after
	 * its acquisition, even when the work ends sooner, so that a job that runs once per
	 * tick cannot run again in the same tick on an instance whose clock or scheduler is a
	 * little late. The lock is then released in the background, and is not reentrant (see
	 * {@link LockTemplate}).
	 * @param holdAtLeast the minimum hold time
	 * @return a new request
	 */
	public LockRequest withHoldAtLeast(Duration holdAtLeast) {
		return new LockRequest(this.key, this.type, this.permits, this.waitTime, holdAtLeast, this.name);
	}

	/**
	 * This request with a name, which metrics and other observations of the lock carry as
	 * a tag: a fixed, low-cardinality value such as {@code InvoiceBatch.close}, never the
	 * key or anything else that varies from call to call.
	 * @param name the lock's name
	 * @return a new request
	 */
	public LockRequest withName(String name) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("'name' must not be empty");
		}
		return new LockRequest(this.key, this.type, this.permits, this.waitTime, this.holdAtLeast, name);
	}

}
