package dev.zklock;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.Collection;
import java.util.SortedSet;
import java.util.TreeSet;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Runs code while holding a distributed lock: acquires the lock for a key within a wait
 * time, runs the callback, and always releases the lock afterwards.
 *
 * <pre class="code">
 * Report report = lockTemplate.execute("report:" + day, (lock) -&gt; build(day, lock.fencingToken()));
 * </pre>
 *
 * The same thread may re-enter a lock it holds, through this template or through
 * {@code @DistributedLock}; inner holds share the outer hold's fencing token, and the
 * lock is released in ZooKeeper when the outermost hold ends.
 * <p>
 * With an {@link ObservationRegistry}, every acquisition is observed as
 * {@code distributed.lock.acquisition} and every hold, from acquisition to release, as
 * {@code distributed.lock.hold}, tagged with the lock's name and type, never its key (see
 * {@link dev.zklock.observation.DefaultLockObservationConvention}).
 *
 */
public class LockTemplate {

	private final LockManager lockManager;

	private final Duration defaultWaitTime;

	private LockObservations observations = new LockObservations(ObservationRegistry.NOOP);

	/**
	 * Creates a template.
	 * @param lockManager acquires the locks, such as a
	 * {@code dev.zklock.zookeeper.ZooKeeperLockRegistry}
	 * @param defaultWaitTime the wait time of {@link #execute(String, LockCallback)}
	 */
	public LockTemplate(LockManager lockManager, Duration defaultWaitTime) {
		if (lockManager == null) {
			throw new IllegalArgumentException("'lockManager' must not be null");
		}
		assertValidWaitTime(defaultWaitTime);
		this.lockManager = lockManager;
		this.defaultWaitTime = defaultWaitTime;
	}

	/**
	 * The wait time used when none is given.
	 * @return the default wait time
	 */
	public Duration getDefaultWaitTime() {
		return this.defaultWaitTime;
	}

	/**
	 * Sets the registry that observes the acquisitions and holds of this template's
	 * locks; {@link ObservationRegistry#NOOP}, the default, observes nothing.
	 * @param observationRegistry the observation registry
	 */
	public void setObservationRegistry(ObservationRegistry observationRegistry) {
		if (observationRegistry == null) {
			throw new IllegalArgumentException("'observationRegistry' must not be null");
		}
		this.observations = new LockObservations(observationRegistry);
	}

	/**
	 * The registry that observes this template's locks.
	 * @return the observation registry
	 */
	public ObservationRegistry getObservationRegistry() {
		return this.observations.registry();
	}

	/**
	 * Runs the callback while holding the lock for the key, waiting at most the default
	 * wait time for it.
	 * @param <T> the type of the result
	 * @param key the lock key: any non-blank string
	 * @param callback the work to run under the lock
	 * @return the callback's result
	 * @throws LockTimeoutException if the lock was not acquired within the wait time
	 * @throws LockAcquisitionException if the lock could not be acquired for another
	 * reason
	 * @throws UndeclaredThrowableException wrapping a checked exception of the callback;
	 * unchecked exceptions and errors of the callback propagate unchanged
	 * @throws LockLostException if the lock was lost while the callback ran and the lock
	 * manager raises losses (see {@link LockManager#raisesLossOnCompletion()}); when the
	 * callback threw, the loss is added to its exception as a suppressed one instead
	 */
	public <T extends @Nullable Object> T execute(String key, LockCallback<T> callback) {
		return execute(key, this.defaultWaitTime, callback);
	}

	/**
	 * Runs the callback while holding the lock for the key, waiting at most the given
	 * time for it.
	 * @param <T> the type of the result
	 * @param key the lock key: any non-blank string
	 * @param waitTime how long to wait for the lock; {@link Duration#ZERO} tries once
	 * @param callback the work to run under the lock
	 * @return the callback's result
	 * @throws LockTimeoutException if the lock was not acquired within the wait time
	 * @throws LockAcquisitionException if the lock could not be acquired for another
	 * reason
	 * @throws UndeclaredThrowableException wrapping a checked exception of the callback;
	 * unchecked exceptions and errors of the callback propagate unchanged
	 * @throws LockLostException if the lock was lost while the callback ran and the lock
	 * manager raises losses (see {@link LockManager#raisesLossOnCompletion()}); when the
	 * callback threw, the loss is added to its exception as a suppressed one instead
	 */
	public <T extends @Nullable Object> T execute(String key, Duration waitTime, LockCallback<T> callback) {
		if (waitTime == null) {
			throw new IllegalArgumentException("'waitTime' must not be null");
		}
		return execute(new LockRequest(key, LockType.EXCLUSIVE, 1, waitTime, Duration.ZERO), callback);
	}

	/**
	 * Runs the callback while holding the requested lock: exclusive, read, write, or a
	 * semaphore permit, waiting at most the request's wait time, or the default one.
	 * @param <T> the type of the result
	 * @param request the lock to acquire
	 * @param callback the work to run under the lock
	 * @return the callback's result
	 * @throws LockTimeoutException if the lock was not acquired within the wait time
	 * @throws LockAcquisitionException if the lock could not be acquired for another
	 * reason
	 * @throws UndeclaredThrowableException wrapping a checked exception of the callback;
	 * unchecked exceptions and errors of the callback propagate unchanged
	 * @throws LockLostException if the lock was lost while the callback ran and the lock
	 * manager raises losses (see {@link LockManager#raisesLossOnCompletion()}); when the
	 * callback threw, the loss is added to its exception as a suppressed one instead
	 */
	public <T extends @Nullable Object> T execute(LockRequest request, LockCallback<T> callback) {
		if (request == null) {
			throw new IllegalArgumentException("'request' must not be null");
		}
		if (callback == null) {
			throw new IllegalArgumentException("'callback' must not be null");
		}
		ObservedLock lock = acquire(request);
		T result;
		CurrentLocks.push(lock.handle());
		try {
			result = callback.doWithLock(lock.handle());
		}
		catch (RuntimeException | Error ex) {
			addLoss(ex, end(lock));
			throw ex;
		}
		catch (Exception ex) {
			addLoss(ex, end(lock));
			keepInterrupt(ex);
			throw new UndeclaredThrowableException(ex,
					"Work under lock '" + AbbreviatedKey.of(request.key()) + "' failed");
		}
		LockLostException lost = end(lock);
		if (lost != null) {
			throw lost;
		}
		return result;
	}

	/**
	 * Runs the callback while holding the locks of several keys, all or none: the keys
	 * are acquired one after the other in their natural order (the same in every process,
	 * so two calls locking {a, b} and {b, a} cannot deadlock), all within the one wait
	 * time; when one cannot be had, those already acquired are released.
	 * @param <T> the type of the result
	 * @param keys the lock keys: non-blank strings, duplicates counted once
	 * @param type what the locks let other holders do meanwhile:
	 * {@link LockType#EXCLUSIVE}, {@link LockType#READ} or {@link LockType#WRITE}
	 * @param waitTime how long to wait for all the locks together
	 * @param callback the work to run under the locks; its handle is a
	 * {@link MultiKeyLock}
	 * @return the callback's result
	 * @throws LockTimeoutException if a lock was not acquired within the wait time
	 * @throws LockAcquisitionException if a lock could not be acquired for another reason
	 * @throws UndeclaredThrowableException wrapping a checked exception of the callback;
	 * unchecked exceptions and errors of the callback propagate unchanged
	 * @throws LockLostException if a lock was lost while the callback ran and the lock
	 * manager raises losses (see {@link LockManager#raisesLossOnCompletion()})
	 */
	public <T extends @Nullable Object> T execute(Collection<String> keys, LockType type, Duration waitTime,
			LockCallback<T> callback) {
		return execute(LockRequest.UNNAMED, keys, type, waitTime, callback);
	}

	/**
	 * Runs the callback while holding the locks of several keys, as
	 * {@link #execute(Collection, LockType, Duration, LockCallback)} does, with a name
	 * for the observations of each key's acquisition and hold.
	 * @param <T> the type of the result
	 * @param name what the locks are called in observations: a fixed, low-cardinality
	 * value such as {@code Accounts.transfer}, not a key (see
	 * {@link LockRequest#withName(String)})
	 * @param keys the lock keys: non-blank strings, duplicates counted once
	 * @param type {@link LockType#EXCLUSIVE}, {@link LockType#READ} or
	 * {@link LockType#WRITE}
	 * @param waitTime how long to wait for all the locks together
	 * @param callback the work to run under the locks, with a {@link MultiKeyLock}
	 * @return the callback's result, or the exceptions of
	 * {@link #execute(Collection, LockType, Duration, LockCallback)}
	 */
	public <T extends @Nullable Object> T execute(String name, Collection<String> keys, LockType type,
			Duration waitTime, LockCallback<T> callback) {
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("'name' must not be empty");
		}
		if (keys == null || keys.isEmpty()) {
			throw new IllegalArgumentException("Lock keys must not be empty");
		}
		if (type == null) {
			throw new IllegalArgumentException("'type' must not be null");
		}
		if (type == LockType.SEMAPHORE) {
			throw new IllegalArgumentException("Several keys cannot be locked as one semaphore");
		}
		assertValidWaitTime(waitTime);
		if (callback == null) {
			throw new IllegalArgumentException("'callback' must not be null");
		}
		SortedSet<String> ordered = new TreeSet<>();
		for (String key : keys) {
			if (key == null || key.isBlank()) {
				throw new IllegalArgumentException("Lock keys must not be null or blank");
			}
			ordered.add(key);
		}
		return new MultiKeyCall<>(this, name, ordered, type, waitTime, callback).run();
	}

	/**
	 * Starts asynchronous work while holding the requested lock, and keeps the lock until
	 * the work's result completes, whichever thread completes it. The lock belongs to the
	 * work, not to the calling thread: it is not reentrant, so the work must not ask for
	 * the same key again (it would wait for itself until its wait time ends). Waiting for
	 * the lock blocks the calling thread, for at most the wait time.
	 * @param <T> the type of the result
	 * @param request the lock to acquire
	 * @param callback starts the work under the lock
	 * @return the work's result, completed after the lock is released; completed
	 * exceptionally with {@link LockLostException} if the lock was lost meanwhile and the
	 * lock manager raises losses (see {@link LockManager#raisesLossOnCompletion()})
	 * @throws LockTimeoutException if the lock was not acquired within the wait time
	 * @throws LockAcquisitionException if the lock could not be acquired for another
	 * reason
	 * @throws UndeclaredThrowableException wrapping a checked exception the callback
	 * threw instead of starting the work
	 */
	public <T extends @Nullable Object> CompletableFuture<T> executeAsync(LockRequest request,
			AsyncLockCallback<T> callback) {
		if (request == null) {
			throw new IllegalArgumentException("'request' must not be null");
		}
		if (callback == null) {
			throw new IllegalArgumentException("'callback' must not be null");
		}
		ObservedLock lock = acquireDetached(request);
		CompletionStage<T> work;
		CurrentLocks.push(lock.handle());
		try {
			work = callback.doWithLock(lock.handle());
		}
		catch (RuntimeException | Error ex) {
			addLoss(ex, end(lock));
			throw ex;
		}
		catch (Exception ex) {
			addLoss(ex, end(lock));
			keepInterrupt(ex);
			throw new UndeclaredThrowableException(ex,
					"Work under lock '" + AbbreviatedKey.of(request.key()) + "' failed to start");
		}
		finally {
			CurrentLocks.remove(lock.handle());
		}
		if (work == null) {
			release(lock);
			throw new IllegalStateException("Asynchronous work under lock '" + AbbreviatedKey.of(request.key())
					+ "' returned no CompletionStage, so there is nothing to keep the lock until");
		}
		CompletableFuture<T> result = new CompletableFuture<>();
		work.whenComplete((value, failure) -> {
			LockLostException lost = release(lock);
			if (failure != null) {
				addLoss(failure, lost);
				result.completeExceptionally(failure);
			}
			else if (lost != null) {
				result.completeExceptionally(lost);
			}
			else {
				result.complete(value);
			}
		});
		return result;
	}

	private ObservedLock acquire(LockRequest request) {
		return this.observations.acquire(request,
				() -> this.lockManager.acquire(request.key(), request.type(), request.permits(), waitTimeOf(request)));
	}

	private ObservedLock acquireDetached(LockRequest request) {
		return this.observations.acquire(request, () -> this.lockManager.acquireDetached(request.key(), request.type(),
				request.permits(), waitTimeOf(request)));
	}

	private Duration waitTimeOf(LockRequest request) {
		return (request.waitTime() != null) ? request.waitTime() : this.defaultWaitTime;
	}

	/**
	 * Ends the hold of a lock whose protected code returned on the calling thread.
	 * @return the exception to raise if the lock was lost meanwhile and the policy says
	 * to raise it, else {@code null}
	 */
	private @Nullable LockLostException end(ObservedLock lock) {
		CurrentLocks.remove(lock.handle());
		return release(lock);
	}

	/**
	 * Releases a lock, at once or once its minimum hold time has passed.
	 * @return the exception to raise if the lock was lost meanwhile and the policy says
	 * to raise it, else {@code null}
	 */
	private @Nullable LockLostException release(ObservedLock lock) {
		return lock.release(this.lockManager.raisesLossOnCompletion());
	}

	/**
	 * Tells the caller of failed protected code that it also lost its lock, unless the
	 * failure is that very loss, raised by an inner hold of the same lock.
	 */
	private static void addLoss(Throwable failure, @Nullable LockLostException lost) {
		if (lost != null && !(failure instanceof LockLostException inner && inner.getKey().equals(lost.getKey()))) {
			failure.addSuppressed(lost);
		}
	}

	/**
	 * Sets the interrupt flag again for an {@link InterruptedException}, which cleared
	 * it, before it is wrapped: the caller's thread is still interrupted.
	 */
	private static void keepInterrupt(Exception ex) {
		if (ex instanceof InterruptedException) {
			Thread.currentThread().interrupt();
		}
	}

	private static void assertValidWaitTime(Duration waitTime) {
		if (waitTime == null) {
			throw new IllegalArgumentException("'waitTime' must not be null");
		}
		if (waitTime.isNegative()) {
			throw new IllegalArgumentException("Wait time must not be negative, but was " + waitTime);
		}
	}

}
