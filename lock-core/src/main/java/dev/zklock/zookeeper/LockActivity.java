package dev.zklock.zookeeper;

import java.time.Instant;

import org.jspecify.annotations.Nullable;

/**
 * A lock that this process holds or waits for, as operators see it.
 *
 * @param key the lock key
 * @param type the lock type: {@code EXCLUSIVE} (which write locks are too), {@code READ}
 * or {@code SEMAPHORE}
 * @param permits the number of permits of a semaphore, {@code 1} for other types
 * @param since when the lock was acquired, or when the wait began
 * @param thread the name of the thread that holds or waits, or {@code null} for a lock
 * that belongs to no thread
 * @param fencingToken the fencing token of a held lock, or {@code null} while waiting
 */
public record LockActivity(String key, String type, int permits, Instant since, @Nullable String thread,
		@Nullable Long fencingToken) {

	static LockActivity held(LockKey.Hold hold) {
		Thread holder = hold.holder();
		return new LockActivity(hold.key(), typeOf(hold.kind()), permitsOf(hold.kind()), hold.acquiredAt(),
				(holder != null) ? holder.getName() : null, hold.fencingToken());
	}

	static LockActivity waiting(String key, LockNodeKind kind, Instant since, @Nullable Thread thread) {
		return new LockActivity(key, typeOf(kind), permitsOf(kind), since, (thread != null) ? thread.getName() : null,
				null);
	}

	static String typeOf(LockNodeKind kind) {
		if (kind instanceof LockNodeKind.Permit) {
			return "SEMAPHORE";
		}
		return (kind == LockNodeKind.SHARED) ? "READ" : "EXCLUSIVE";
	}

	static int permitsOf(LockNodeKind kind) {
		return (kind instanceof LockNodeKind.Permit permit) ? permit.permits() : 1;
	}

}
