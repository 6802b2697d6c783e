package dev.zklock.zookeeper;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.jspecify.annotations.Nullable;

/**
 * A key's lock queue, the holds of this process's threads, the acquisitions they made
 * through {@link ZooKeeperLock} views, the cohorts that hand its exclusive and shared
 * locks over between them, and the number of acquisitions that use it (holding or
 * waiting).
 */
final class LockEntry {

	final String key;

	final LockQueue queue;

	private final ConcurrentMap<Thread, LockHold> holds = new ConcurrentHashMap<>();

	private final ConcurrentMap<Thread, Deque<AcquiredLock>> viewAcquisitions = new ConcurrentHashMap<>();

	private final @Nullable LockCohort exclusive;

	private final @Nullable LockCohort shared;

	/**
	 * The acquisitions that use this entry. Counted only within {@link LockEntries}'
	 * atomic updates of the key's mapping, which serialize them.
	 */
	private int users;

	LockEntry(String key, LockQueue queue, HandOffPolicy handOffPolicy) {
		this.key = key;
		this.queue = queue;
		this.exclusive = handOffPolicy.enabled() ? new LockCohort(false, handOffPolicy, queue) : null;
		this.shared = handOffPolicy.enabled() ? new LockCohort(true, handOffPolicy, queue) : null;
	}

	/**
	 * Counts one more acquisition that uses this entry.
	 */
	void addUser() {
		this.users++;
	}

	/**
	 * Counts one acquisition less that uses this entry.
	 * @return whether acquisitions still use it
	 */
	boolean removeUser() {
		return --this.users > 0;
	}

	/**
	 * The hold of the key's lock that a thread's next acquisitions of the key re-enter.
	 * @param thread the thread
	 * @return the hold, or {@code null} if the thread has none to re-enter
	 */
	@Nullable LockHold holdOf(Thread thread) {
		return this.holds.get(thread);
	}

	/**
	 * Lets a thread's next acquisitions of the key re-enter a hold it has taken.
	 * @param thread the holding thread
	 * @param hold the hold
	 */
	void keepHold(Thread thread, LockHold hold) {
		this.holds.put(thread, hold);
	}

	/**
	 * Stops a thread's next acquisitions of the key from re-entering a hold, if that is
	 * still the hold they would re-enter.
	 * @param thread the holding thread
	 * @param hold the hold the thread is done with
	 */
	void forgetHold(Thread thread, LockHold hold) {
		this.holds.remove(thread, hold);
	}

	/**
	 * The cohort through which this process's threads take locks of a kind.
	 * @param kind the kind of lock
	 * @return the cohort, or {@code null} if each acquisition queues in ZooKeeper on its
	 * own: when hand-offs are off, and for semaphore permits, which are counted by nodes
	 */
	@Nullable LockCohort cohortOf(LockNodeKind kind) {
		if (kind == LockNodeKind.EXCLUSIVE) {
			return this.exclusive;
		}
		return (kind == LockNodeKind.SHARED) ? this.shared : null;
	}

	/**
	 * Records an acquisition that a thread made through any {@link ZooKeeperLock} view of
	 * the key, as its latest.
	 * @param thread the acquiring thread
	 * @param acquired the acquisition, which keeps this entry in use until released
	 */
	void addViewAcquisition(Thread thread, AcquiredLock acquired) {
		this.viewAcquisitions.computeIfAbsent(thread, (t) -> new ArrayDeque<>()).push(acquired);
	}

	/**
	 * The earliest acquisition that a thread still holds through any
	 * {@link ZooKeeperLock} view of the key: its outermost, released last.
	 * @param thread the thread
	 * @return the acquisition, or {@code null} if the thread has none
	 */
	@Nullable AcquiredLock outermostViewAcquisition(Thread thread) {
		Deque<AcquiredLock> acquired = this.viewAcquisitions.get(thread);
		return (acquired != null) ? acquired.peekLast() : null;
	}

	/**
	 * Removes the latest acquisition that a thread made through any {@link ZooKeeperLock}
	 * view of the key, forgetting the thread once it has none left.
	 * @param thread the thread
	 * @return the acquisition, still to be released, or {@code null} if the thread has
	 * none
	 */
	@Nullable AcquiredLock removeLatestViewAcquisition(Thread thread) {
		Deque<AcquiredLock> acquired = this.viewAcquisitions.get(thread);
		if (acquired == null) {
			return null;
		}
		AcquiredLock latest = acquired.pop();
		if (acquired.isEmpty()) {
			this.viewAcquisitions.remove(thread);
		}
		return latest;
	}

}
