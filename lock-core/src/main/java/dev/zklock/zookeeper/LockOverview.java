package dev.zklock.zookeeper;

import java.util.List;

import dev.zklock.AbbreviatedKey;

/**
 * Describes a registry's locks to operators: those this process holds and waits for, and
 * the queue of a key as ZooKeeper sees it.
 */
final class LockOverview {

	private final LockRoot root;

	private final LockLossDetector lossDetector;

	private final LockWaits waits;

	private final LockEntries entries;

	LockOverview(LockRoot root, LockLossDetector lossDetector, LockWaits waits, LockEntries entries) {
		this.root = root;
		this.lossDetector = lossDetector;
		this.waits = waits;
		this.entries = entries;
	}

	List<LockActivity> heldLocks() {
		return this.lossDetector.holds().stream().map(LockActivity::held).toList();
	}

	List<LockActivity> waitingLocks() {
		return this.waits.activities();
	}

	/**
	 * The queue of a key's lock as ZooKeeper sees it.
	 * @param key the lock key
	 * @return the nodes, empty if nobody holds or waits for the key
	 * @throws IllegalArgumentException if the key is {@code null} or empty
	 * @throws IllegalStateException if ZooKeeper cannot be read
	 */
	List<QueuedLockNode> queueOf(String key) {
		LockQueue queue = new LockQueue(this.root, key);
		try {
			return queue.nodes();
		}
		catch (Exception ex) {
			throw new IllegalStateException(
					"Could not read the lock queue of '" + AbbreviatedKey.of(key) + "' from ZooKeeper: " + ex, ex);
		}
	}

	int keysInUse() {
		return this.entries.inUse();
	}

}
