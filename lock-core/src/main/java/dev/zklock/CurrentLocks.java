package dev.zklock;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The locks each thread holds through {@link LockTemplate}, innermost first, so that
 * {@link LockHandle#current()} can find them.
 */
final class CurrentLocks {

	private static final ThreadLocal<Deque<LockHandle>> locks = ThreadLocal.withInitial(ArrayDeque::new);

	private CurrentLocks() {
	}

	static void push(LockHandle lock) {
		locks.get().push(lock);
	}

	/**
	 * Forgets a lock the thread holds, once; later calls for the same lock do nothing.
	 * @param lock the lock
	 */
	static void remove(LockHandle lock) {
		// the thread keeps its empty stack for its next lock: taking it away and giving
		// it
		// back each time cost more than the lock's own bookkeeping
		locks.get().removeFirstOccurrence(lock);
	}

	static LockHandle innermost() {
		LockHandle innermost = locks.get().peek();
		if (innermost == null) {
			throw new IllegalStateException("The current thread holds no distributed lock: LockHandle.current() "
					+ "works inside a @DistributedLock method or a LockTemplate callback");
		}
		return innermost;
	}

}
