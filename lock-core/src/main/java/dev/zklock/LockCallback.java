package dev.zklock;

import org.jspecify.annotations.Nullable;

/**
 * Work to run while holding a distributed lock, for {@link LockTemplate}.
 *
 * @param <T> the type of the result
 */
@FunctionalInterface
public interface LockCallback<T extends @Nullable Object> {

	/**
	 * Runs while the lock is held.
	 * @param lock the held lock: its key, fencing token and validity
	 * @return the result, handed back by {@link LockTemplate}
	 * @throws Exception any failure; the lock is released before it reaches the caller
	 */
	T doWithLock(LockHandle lock) throws Exception;

}
