package dev.zklock;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The locks each thread holds through {@link LockTemplate}, innermost first, so that
 * {@link LockHandle#current()} can find them. It keeps them as plain objects, the
 * {@link LockHandle handles} that the template gives its callbacks, so that it depends on
 * nothing that depends on it.
 */
final class CurrentLocks {

	private static final ThreadLocal<Deque<Object>> locks = ThreadLocal.withInitial(ArrayDeque::new);

	private CurrentLocks() {
	}

	static void push(Object lock) {
		locks.get().push(lock);
	}

	/**
	 * Forgets a lock the thread holds, once; later calls for the same lock do nothing.
	 */
	static void remove(Object lock) {
		// the thread keeps its empty stack for its next lock: taking it away and giving
		// it
		// back each time cost more than the lock's own bookkeeping
		locks.get().removeFirstOccurrence(lock);
	}

	static Object innermost() {
		Object innermost = locks.get().peek();
		if (innermost == null) {
			throw new IllegalStateException("The current thread holds no distributed lock: LockHandle.current() "
					+ "works inside a @DistributedLock method or a LockTemplate callback");
		}
		return innermost;
	}

}
