package dev.zklock.zookeeper;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.jspecify.annotations.Nullable;

/**
 * A key's lock queue, the holds of this process's threads, the cohorts that hand its
 * exclusive and shared locks over between them, and the number of acquisitions that use
 * it (holding or waiting); the count is guarded by {@link LockEntries}.
 */
final class LockEntry {

	final LockQueue queue;

	final ConcurrentMap<Thread, LockHold> holds = new ConcurrentHashMap<>();

	private final @Nullable LockCohort exclusive;

	private final @Nullable LockCohort shared;

	int users;

	LockEntry(LockQueue queue, HandOffPolicy handOffPolicy) {
		this.queue = queue;
		this.exclusive = handOffPolicy.enabled() ? new LockCohort(false, handOffPolicy) : null;
		this.shared = handOffPolicy.enabled() ? new LockCohort(true, handOffPolicy) : null;
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

}
