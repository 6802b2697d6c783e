package dev.zklock.zookeeper;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockAcquisitionException;
import org.jspecify.annotations.Nullable;

/**
 * Decides whether an acquisition re-enters its thread's hold of the key: a thread's own
 * acquisitions of a key's exclusive, read or write lock share one hold, unless sharing it
 * would wait for itself or start under a lock known to be lost.
 */
final class LockReentry {

	private final LockEntries entries;

	private final LockLossDetector lossDetector;

	LockReentry(LockEntries entries, LockLossDetector lossDetector) {
		this.entries = entries;
		this.lossDetector = lossDetector;
	}

	/**
	 * Re-enters the owner's hold of the key, if it has one that the acquisition shares
	 * and that still takes acquisitions: a hold that ended, or that its thread left with
	 * only delayed releases to come, takes none, and the acquisition queues like any
	 * other contender's. A re-entry refused with an exception counts the entry as used
	 * once less.
	 * @param entry the key's entry, retained for the acquisition
	 * @param kind the kind of lock asked for
	 * @param owner the thread that will own the acquisition, or {@code null} for none
	 * @return the re-entered hold, or {@code null} if the acquisition takes a hold of its
	 * own
	 * @throws IllegalStateException if the owner holds the key's read lock and asks for
	 * its exclusive (write) lock
	 * @throws LockAcquisitionException if the owner's hold of the key was lost
	 */
	@Nullable LockHold reenter(LockEntry entry, LockNodeKind kind, @Nullable Thread owner) {
		LockHold current = (owner != null && sharesHolds(kind)) ? entry.holdOf(owner) : null;
		if (current == null) {
			return null;
		}
		if (kind == LockNodeKind.EXCLUSIVE && current.kind() == LockNodeKind.SHARED) {
			this.entries.dispose(entry);
			throw new IllegalStateException("The current thread holds the read lock of '" + AbbreviatedKey.of(entry.key)
					+ "' and asks for its exclusive (write) lock: that upgrade would "
					+ "wait for itself; release the read lock first");
		}
		if (!current.enter()) {
			// the hold ended, or its thread left it, while it could still be found
			return null;
		}
		if (!this.lossDetector.isHeld(current) && current.lossReason() != null) {
			// takes back the acquisition that entered: one of the thread's own is left
			current.exit();
			this.entries.dispose(entry);
			throw new LockAcquisitionException(entry.key,
					"Could not re-enter lock '" + AbbreviatedKey.of(entry.key)
							+ "': the current thread's hold of it (fencing token " + current.fencingToken()
							+ ") was lost: " + current.lossReason(),
					null);
		}
		return current;
	}

	/**
	 * Lets the owner's later acquisitions of the key re-enter a hold it has just taken,
	 * if they share it.
	 * @param entry the key's entry
	 * @param kind the kind of lock taken
	 * @param owner the thread that owns the hold, or {@code null} for none
	 * @param hold the new hold
	 */
	void keep(LockEntry entry, LockNodeKind kind, @Nullable Thread owner, LockHold hold) {
		if (owner != null && sharesHolds(kind)) {
			entry.keepHold(owner, hold);
		}
	}

	/**
	 * Whether a thread's acquisitions of a kind of lock share its hold: semaphore permits
	 * never do, each one counted by a node of its own.
	 */
	private static boolean sharesHolds(LockNodeKind kind) {
		return !(kind instanceof LockNodeKind.Permit);
	}

}
