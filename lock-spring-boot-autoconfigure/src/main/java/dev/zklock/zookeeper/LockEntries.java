package dev.zklock.zookeeper;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;

import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

/**
 * The keys this process holds or waits for, each with its {@link LockEntry}: created on
 * first use, shared by every acquisition of the key while any holds or waits, and dropped
 * after the last one, so memory stays bounded by the keys in use.
 */
final class LockEntries {

	private final ConcurrentMap<String, LockEntry> entries = new ConcurrentHashMap<>();

	private final CuratorFramework client;

	private final HandOffPolicy handOffPolicy;

	LockEntries(CuratorFramework client, HandOffPolicy handOffPolicy) {
		this.client = client;
		this.handOffPolicy = handOffPolicy;
	}

	/**
	 * The entry of a key's node, counted as used once more.
	 * @param path the key's node path
	 * @return the entry
	 */
	LockEntry retain(String path) {
		return this.entries.compute(path, (p, entry) -> {
			LockEntry retained = (entry != null) ? entry
					: new LockEntry(new LockQueue(this.client, p), this.handOffPolicy);
			retained.users++;
			return retained;
		});
	}

	/**
	 * The entry of a key's node, if it is in use, without counting it as used again.
	 * @param path the key's node path
	 * @return the entry, or {@code null} if the key is not in use
	 */
	@Nullable LockEntry find(String path) {
		return this.entries.get(path);
	}

	/**
	 * Counts an entry as used once less, and drops it when nobody uses it.
	 * @param entry the entry
	 */
	void dispose(LockEntry entry) {
		this.entries.computeIfPresent(entry.queue.keyPath(), (path, current) -> (--current.users > 0) ? current : null);
	}

	HandOffPolicy handOffPolicy() {
		return this.handOffPolicy;
	}

	int inUse() {
		return this.entries.size();
	}

}
