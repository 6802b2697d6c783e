package dev.zklock.integration;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.concurrent.TimeoutException;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockAcquisitionException;
import dev.zklock.LockHandle;
import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.LockTimeoutException;
import org.jspecify.annotations.Nullable;

import org.springframework.integration.util.CheckedCallable;

/**
 * One {@code executeLocked} call of a {@link ZooKeeperIntegrationLockRegistry}: runs the
 * work through a {@link LockTemplate} and answers as Spring Integration's
 * {@code LockRegistry} promises. A wait that ends without the lock is a
 * {@link TimeoutException}, an interrupted wait an {@link InterruptedException}, and
 * whatever the work throws reaches the caller unchanged, not wrapped as the template
 * wraps checked exceptions. The template's other answers pass through:
 * {@link dev.zklock.LockLostException} after work whose lock was lost, and
 * {@link LockAcquisitionException} when ZooKeeper cannot be reached.
 *
 * @param <T> the type of the work's result
 * @param <E> the type of exception the work throws
 */
final class LockedCall<T extends @Nullable Object, E extends Throwable> {

	private final CheckedCallable<T, E> work;

	private boolean started;

	private @Nullable Exception checkedFailure;

	LockedCall(CheckedCallable<T, E> work) {
		this.work = work;
	}

	/**
	 * Runs the work under the requested lock, waiting for it as long as the request says.
	 * @param template the template that takes, observes and releases the lock
	 * @param request the lock, with its wait time
	 * @return the work's result
	 * @throws E what the work threw
	 * @throws InterruptedException if the thread was interrupted before or while waiting
	 * for the lock
	 * @throws TimeoutException if another holder kept the lock for the wait time
	 */
	T runWithTimeout(LockTemplate template, LockRequest request) throws E, InterruptedException, TimeoutException {
		try {
			return run(template, request);
		}
		catch (LockTimeoutException ex) {
			if (this.started) {
				throw ex;
			}
			TimeoutException timeout = new TimeoutException(ex.getMessage());
			timeout.initCause(ex);
			throw timeout;
		}
	}

	/**
	 * Runs the work under the requested lock, for a request that waits without bound.
	 * @param template the template that takes, observes and releases the lock
	 * @param request the lock, waiting without bound
	 * @return the work's result
	 * @throws E what the work threw
	 * @throws InterruptedException if the thread was interrupted before or while waiting
	 * for the lock
	 */
	@SuppressWarnings("unchecked")
	T run(LockTemplate template, LockRequest request) throws E, InterruptedException {
		if (Thread.interrupted()) {
			throw new InterruptedException(
					"Interrupted before acquiring lock '" + AbbreviatedKey.of(request.key()) + "'");
		}
		try {
			return template.execute(request, this::doWithLock);
		}
		catch (UndeclaredThrowableException ex) {
			if (this.checkedFailure != null && ex.getCause() == this.checkedFailure) {
				throw (E) this.checkedFailure;
			}
			throw ex;
		}
		catch (LockAcquisitionException ex) {
			if (!this.started && ex.getCause() instanceof InterruptedException interrupted) {
				Thread.interrupted();
				throw interrupted;
			}
			throw ex;
		}
	}

	private T doWithLock(LockHandle lock) throws Exception {
		this.started = true;
		try {
			return this.work.call();
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Exception ex) {
			this.checkedFailure = ex;
			throw ex;
		}
		catch (Throwable ex) {
			throw new UndeclaredThrowableException(ex,
					"Work under lock '" + AbbreviatedKey.of(lock.key()) + "' failed");
		}
	}

}
