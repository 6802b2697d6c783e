package dev.zklock;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * The locks each thread holds through {@link LockTemplate}, innermost first, so that
 * {@link LockHandle#current()} can find them.
 */
final class HeldLocks {

	private static final ThreadLocal<Deque<LockHandle>> locks = ThreadLocal.withInitial(ArrayDeque::new);

	private HeldLocks() {
	}

	static void push(LockHandle lock) {
		locks.get().push(lock);
	}

	/**
	 * Forgets a lock the thread holds, once; later calls for the same lock do nothing.
	 * @param lock the lock
	 */
	static void remove(LockHandle lock) {
		Deque<LockHandle> held = locks.get();
		held.removeFirstOccurrence(lock);
		if (held.isEmpty()) {
			locks.remove();
		}
	}

	static LockHandle innermost() {
		LockHandle innermost = locks.get().peek();
		if (innermost == null) {
			locks.remove();
			throw new IllegalStateException("The current thread holds no distributed lock: LockHandle.current() "
					+ "works inside a @DistributedLock method or a LockTemplate callback");
		}
		return innermost;
	}

}
