package dev.zklock;

import java.util.Objects;
import java.util.List;

/**
 * The locks of several keys held together, as a {@link LockTemplate} multi-key call or a
 * {@code @DistributedLock} whose key expression yields several keys holds them.
 * <p>
 * {@link #key()} lists the keys in the order they were acquired, comma-separated, and
 * {@link #fencingToken()} is the greatest of their tokens; storage fenced per key takes
 * each key's own token from {@link #locks()}.
 *
 * @param locks the lock of each key, in the order they were acquired
 */
public record MultiKeyLock(List<LockHandle> locks) implements LockHandle {

	/**
	 * Creates a handle for locks held together.
	 * @param locks the lock of each key, in the order they were acquired
	 * @throws IllegalArgumentException if there are no locks or one is {@code null}
	 */
	public MultiKeyLock {
		if (locks == null || locks.isEmpty()) {
			throw new IllegalArgumentException("'locks' must not be empty");
		}
		if (locks.stream().anyMatch(Objects::isNull)) {
			throw new IllegalArgumentException("'locks' must not contain null");
		}
		locks = List.copyOf(locks);
	}

	@Override
	public String key() {
		return String.join(",", this.locks.stream().map(LockHandle::key).toList());
	}

	@Override
	public long fencingToken() {
		return this.locks.stream().mapToLong(LockHandle::fencingToken).max().orElseThrow();
	}

	@Override
	public boolean isValid() {
		return this.locks.stream().allMatch(LockHandle::isValid);
	}

}
