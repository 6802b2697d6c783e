package dev.zklock.zookeeper;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

/**
 * A key's lock queue, the holds of this process's threads, and the number of acquisitions
 * that use it (holding or waiting); the count is guarded by {@link LockEntries}.
 */
final class LockEntry {

	final LockQueue queue;

	final ConcurrentMap<Thread, LockHold> holds = new ConcurrentHashMap<>();

	int users;

	LockEntry(LockQueue queue) {
		this.queue = queue;
	}

}
