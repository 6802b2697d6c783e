package dev.zklock.zookeeper;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * One acquisition that waits for its lock, recorded for operators while it waits. Each
 * wait is an object of its own, equal only to itself, and the {@link LockActivity} that
 * operators read is made from it only when they ask.
 */
final class LockWait {

	private final String key;

	private final LockNodeKind kind;

	private final long sinceMillis = System.currentTimeMillis();

	private final @Nullable Thread thread;

	/**
	 * Records a wait that begins now.
	 * @param key the lock key
	 * @param kind the kind of lock
	 * @param thread the waiting thread, or {@code null} for an acquisition that will
	 * belong to no thread
	 */
	LockWait(String key, LockNodeKind kind, @Nullable Thread thread) {
		this.key = key;
		this.kind = kind;
		this.thread = thread;
	}

	LockActivity activity() {
		return LockActivity.waiting(this.key, this.kind, Instant.ofEpochMilli(this.sinceMillis), this.thread);
	}

}
