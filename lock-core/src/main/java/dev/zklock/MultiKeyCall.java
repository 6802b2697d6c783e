package dev.zklock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.SortedSet;
import java.util.TreeSet;

import org.jspecify.annotations.Nullable;

/**
 * One call of {@link LockTemplate} under several keys: acquires each key, in order, under
 * the locks of the keys before it, all within one wait time, and runs the callback under
 * all of them.
 */
final class MultiKeyCall<T extends @Nullable Object> {

	private final LockTemplate template;

	private final String name;

	private final List<String> keys;

	private final LockType type;

	private final Duration waitTime;

	private final long deadline;

	private final LockCallback<T> callback;

	private final List<LockHandle> acquired = new ArrayList<>();

	private boolean started;

	/**
	 * Prepares a call, checking its arguments.
	 * @throws IllegalArgumentException naming the argument that is missing or invalid
	 */
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

	/**
	 * The keys in their natural order, the same in every process, so that two calls
	 * locking {a, b} and {b, a} cannot deadlock; duplicates counted once.
	 */
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

	/**
	 * Runs the call.
	 * @return the callback's result
	 * @throws LockTimeoutException naming the whole wait time, if a key was not acquired
	 * within it
	 */
	T run() {
		try {
			return this.template.execute(request(0), (lock) -> proceed(lock, 1));
		}
		catch (LockTimeoutException ex) {
			throw this.started ? ex : namingTheWholeWaitTime(ex);
		}
	}

	/**
	 * The timeout of one key, told with the wait time of the whole call, keeping what the
	 * keys acquired before it added: the loss of one of their locks, say.
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
