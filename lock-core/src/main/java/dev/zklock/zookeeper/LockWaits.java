package dev.zklock.zookeeper;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import org.jspecify.annotations.Nullable;

/**
 * The acquisitions of a registry that wait for their locks now, kept for operators.
 */
final class LockWaits {

	private final Set<LockWait> waits = ConcurrentHashMap.newKeySet();

	/**
	 * Records a wait that begins now.
	 * @param key the lock key
	 * @param kind the kind of lock
	 * @param thread the waiting thread, or {@code null} for an acquisition that will
	 * belong to no thread
	 * @return the wait, to be {@link #end ended} once the acquisition succeeds or fails
	 */
	LockWait begin(String key, LockNodeKind kind, @Nullable Thread thread) {
		LockWait wait = new LockWait(key, kind, thread);
		this.waits.add(wait);
		return wait;
	}

	void end(LockWait wait) {
		this.waits.remove(wait);
	}

	/**
	 * The waits as operators see them.
	 * @return the awaited locks
	 */
	List<LockActivity> activities() {
		return this.waits.stream().map(LockWait::activity).toList();
	}

}
