package dev.zklock.zookeeper;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.function.BiFunction;

import org.jspecify.annotations.Nullable;

/**
 * The keys this process holds or waits for, each with its {@link LockEntry}: created on
 * first use, shared by every acquisition of the key while any holds or waits, and dropped
 * after the last one, so memory stays bounded by the keys in use.
 */
final class LockEntries {

	private final ConcurrentMap<String, LockEntry> entries = new ConcurrentHashMap<>();

	private final LockRoot root;

	private final HandOffPolicy handOffPolicy;

	private final BiFunction<String, @Nullable LockEntry, LockEntry> retainer = this::retained;

	private final BiFunction<String, LockEntry, @Nullable LockEntry> disposer = LockEntries::disposed;

	/**
	 * Creates the entries of a registry.
	 * @param root the root the keys' nodes live under
	 * @param handOffPolicy the hand-off policy of every entry
	 */
	LockEntries(LockRoot root, HandOffPolicy handOffPolicy) {
		this.root = root;
		this.handOffPolicy = handOffPolicy;
	}

	/**
	 * The entry of a key, counted as used once more. The key's node path is worked out
	 * only for a key not in use yet.
	 * @param key the lock key
	 * @return the entry
	 */
	LockEntry retain(String key) {
		return this.entries.compute(key, this.retainer);
	}

	private LockEntry retained(String key, @Nullable LockEntry entry) {
		LockEntry retained = (entry != null) ? entry
				: new LockEntry(key, new LockQueue(this.root, key), this.handOffPolicy);
		retained.addUser();
		return retained;
	}

	/**
	 * The entry of a key, if it is in use, without counting it as used again: an entry
	 * that the calling thread holds an acquisition of stays until that is released.
	 * @param key the lock key
	 * @return the entry, or {@code null} if the key is not in use
	 */
	@Nullable LockEntry find(String key) {
		return this.entries.get(key);
	}

	/**
	 * Counts an entry as used once less, and drops it when nobody uses it.
	 * @param entry the entry
	 */
	void dispose(LockEntry entry) {
		this.entries.computeIfPresent(entry.key, this.disposer);
	}

	private static @Nullable LockEntry disposed(String key, LockEntry entry) {
		return entry.removeUser() ? entry : null;
	}

	HandOffPolicy handOffPolicy() {
		return this.handOffPolicy;
	}

	int inUse() {
		return this.entries.size();
	}

}
