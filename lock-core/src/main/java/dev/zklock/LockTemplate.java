package dev.zklock;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
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
 */
public class LockTemplate {

	private final LockManager lockManager;

	private final Duration defaultWaitTime;

	private ObservationRegistry observationRegistry = ObservationRegistry.NOOP;

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
		LockRequest.checkWaitTime(defaultWaitTime);
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
		this.observationRegistry = observationRegistry;
	}

	/**
	 * The registry that observes this template's locks.
	 * @return the observation registry
	 */
	public ObservationRegistry getObservationRegistry() {
		return this.observationRegistry;
	}

	/**
	 * Runs the callback while holding the lock for the key, waiting at most the default
	 * wait time for it.
	 * @param <T> the type of the result
	 * @param key the lock key: any non-blank string
	 * @param callback the work to run under the lock
	 * @return the callback's result; the exceptions are those of
	 * {@link #execute(LockRequest, LockCallback)}
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
	 * @return the callback's result; the exceptions are those of
	 * {@link #execute(LockRequest, LockCallback)}
	 * @throws IllegalArgumentException if the wait time is {@code null} or negative
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
		catch (Throwable ex) {
			throw lock.failed(ex, "failed");
		}
		LockLostException lost = lock.end();
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
	 * @return the callback's result; the exceptions are those of
	 * {@link #execute(LockRequest, LockCallback)}, for any of the keys
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
		return new MultiKeyCall<>(this, name, keys, type, waitTime, callback).run();
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
		catch (Throwable ex) {
			throw lock.failed(ex, "failed to start");
		}
		finally {
			CurrentLocks.remove(lock.handle());
		}
		if (work == null) {
			lock.release();
			throw new IllegalStateException("Asynchronous work under lock '" + AbbreviatedKey.of(request.key())
					+ "' returned no CompletionStage, so there is nothing to keep the lock until");
		}
		return lock.releaseOnCompletion(work);
	}

	private ObservedLock acquire(LockRequest request) {
		return ObservedLock.acquire(this.observationRegistry, request, this.lockManager.raisesLossOnCompletion(),
				() -> this.lockManager.acquire(request.key(), request.type(), request.permits(), waitTimeOf(request)));
	}

	private ObservedLock acquireDetached(LockRequest request) {
		return ObservedLock.acquire(this.observationRegistry, request, this.lockManager.raisesLossOnCompletion(),
				() -> this.lockManager.acquireDetached(request.key(), request.type(), request.permits(),
						waitTimeOf(request)));
	}

	private Duration waitTimeOf(LockRequest request) {
		return (request.waitTime() != null) ? request.waitTime() : this.defaultWaitTime;
	}

	/**
	 * One call of {@link LockTemplate} under several keys: acquires each key, in order,
	 * under the locks of the keys before it, all within one wait time, and runs the
	 * callback under all of them.
	 */
	private static final class MultiKeyCall<T extends @Nullable Object> {

		private final LockTemplate template;

		private final String name;

		private final List<String> keys;

		private final LockType type;

		private final Duration waitTime;

		private final long deadline;

		private final LockCallback<T> callback;

		private final List<LockHandle> acquired = new ArrayList<>();

		private boolean started;

		MultiKeyCall(LockTemplate template, String name, Collection<String> keys, LockType type, Duration waitTime,
				LockCallback<T> callback) {
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
			LockRequest.checkWaitTime(waitTime);
			if (callback == null) {
				throw new IllegalArgumentException("'callback' must not be null");
			}
			this.template = template;
			this.name = name;
			this.keys = inOrder(keys);
			this.type = type;
			this.waitTime = (waitTime.compareTo(LockManager.LONGEST_WAIT) > 0) ? LockManager.LONGEST_WAIT : waitTime;
			this.deadline = System.nanoTime() + this.waitTime.toNanos();
			this.callback = callback;
		}

		private static List<String> inOrder(Collection<String> keys) {
			SortedSet<String> ordered = new TreeSet<>();
			for (String key : keys) {
				if (key == null || key.isBlank()) {
					throw new IllegalArgumentException("Lock keys must not be null or blank");
				}
				ordered.add(key);
			}
			return new ArrayList<>(ordered);
		}

		/** Runs the call; a timeout names the whole wait time. */
		T run() {
			try {
				return this.template.execute(request(0), (lock) -> proceed(lock, 1));
			}
			catch (LockTimeoutException ex) {
				throw this.started ? ex : namingTheWholeWaitTime(ex);
			}
		}

		/**
		 * The timeout of one key, told with the wait time of the whole call, keeping what
		 * the keys acquired before it added: the loss of one of their locks, say.
		 */
		private LockTimeoutException namingTheWholeWaitTime(LockTimeoutException timeout) {
			LockTimeoutException whole = new LockTimeoutException(timeout.getKey(), this.waitTime, timeout.getHolder());
			for (Throwable suppressed : timeout.getSuppressed()) {
				whole.addSuppressed(suppressed);
			}
			return whole;
		}

		private LockRequest request(int index) {
			Duration remaining = Duration.ofNanos(Math.max(0, this.deadline - System.nanoTime()));
			return new LockRequest(this.keys.get(index), this.type, 1, remaining, Duration.ZERO, this.name);
		}

		private T proceed(LockHandle lock, int next) throws Exception {
			this.acquired.add(lock);
			if (next < this.keys.size()) {
				return this.template.execute(request(next), (nextLock) -> proceed(nextLock, next + 1));
			}
			MultiKeyLock all = new MultiKeyLock(this.acquired);
			this.started = true;
			CurrentLocks.push(all);
			try {
				return this.callback.doWithLock(all);
			}
			finally {
				CurrentLocks.remove(all);
			}
		}

	}

}
