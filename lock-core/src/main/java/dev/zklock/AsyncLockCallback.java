package dev.zklock;

import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

/**
 * Asynchronous work to run under a distributed lock that is kept until the work's result
 * completes.
 *
 * @param <T> the type of the result
 * @see LockTemplate#executeAsync(LockRequest, AsyncLockCallback)
 */
@FunctionalInterface
public interface AsyncLockCallback<T extends @Nullable Object> {

	/**
	 * Starts the work. Called on the thread that acquired the lock; the lock is kept
	 * until the returned stage completes, whichever thread completes it.
	 * @param lock the held lock
	 * @return the work's eventual result
	 * @throws Exception if the work cannot start; the lock is released at once
	 */
	CompletionStage<T> doWithLock(LockHandle lock) throws Exception;

}
