package dev.zklock.zookeeper;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * One thread's hold of a key's ZooKeeper lock, from its outermost acquisition to the
 * release of its last one; reentrant acquisitions share it. It knows its lock node and
 * the ZooKeeper session that owns it, and whether the lock was lost or became uncertain
 * since.
 * <p>
 * The hold counts its acquisitions, and among them those whose release was delayed (a
 * hold-at-least): the holding thread is done with those, which keep the lock until a
 * scheduler releases them. Each event of that count is one method, run under the hold's
 * monitor, that returns what the caller has to do next ({@link Change}): the owner thread
 * re-enters ({@link #enter()}), releases ({@link #exit()}) or delays a release
 * ({@link #delayExit()}), and the scheduler ends a delayed release
 * ({@link #exitDelayed()}). Once the holding thread has left the hold (only delayed
 * releases are left) or the hold has ended, it takes no more acquisitions: a later
 * acquisition of the thread queues like any other contender's. So the hold ends exactly
 * once, and nobody holds it afterwards.
 */
final class LockHold {

	/**
	 * What an event of a hold's count leaves to do.
	 */
	enum Change {

		/**
		 * The holding thread still holds the lock: nothing to do.
		 */
		STILL_HELD,

		/**
		 * The holding thread is done with the hold, which stays held until its delayed
		 * releases end: the thread's next acquisitions must no longer find it.
		 */
		THREAD_LEFT,

		/**
		 * The last acquisition was released: the hold ended, and its lock node is to be
		 * given back.
		 */
		ENDED

	}

	private final String key;

	private final LockQueue.QueuedNode node;

	private final long fencingToken;

	private final @Nullable Thread holder;

	private final @Nullable LockCohort cohort;

	private final long acquiredAtMillis = System.currentTimeMillis();

	private volatile @Nullable String lossReason;

	/**
	 * The doubt about the lock in one word: the doubt generation, which each
	 * {@link #markUncertain()} advances, shifted left by one, and in the lowest bit
	 * whether the lock is uncertain. A confirmation makes certain only the generation it
	 * confirmed, by compare-and-set, so a doubt raised after it asked is never erased.
	 */
	private final AtomicLong doubt = new AtomicLong();

	// The count state and the interrupt state below are guarded by the monitor of this
	// hold, and change only under it.

	/**
	 * The acquisitions sharing this hold that are not released yet, delayed ones
	 * included. Invariant: {@code acquisitions >= delayedExits >= 0}; it is {@code 0} if
	 * and only if {@link #ended}, and never grows again then.
	 */
	private int acquisitions = 1;

	/**
	 * The acquisitions whose release was delayed, not released yet: the holding thread is
	 * done with them.
	 */
	private int delayedExits;

	/**
	 * Whether the holding thread is done with the hold: set, for good, once only delayed
	 * releases were left ({@code acquisitions == delayedExits}). No acquisition enters
	 * the hold afterwards, so that stays true until the hold ends.
	 */
	private boolean threadLeft;

	/**
	 * Whether the last acquisition was released: set once, for good, by the event that
	 * took {@link #acquisitions} to {@code 0}, the only one that returns
	 * {@link Change#ENDED}.
	 */
	private boolean ended;

	/**
	 * Whether the acquisition completed, so that a loss may interrupt the holder.
	 */
	private boolean begun;

	/**
	 * Whether the lost-lock policy interrupted the holder; only while the hold has begun
	 * and neither ended nor was left by its thread.
	 */
	private boolean holderInterrupted;

	/**
	 * Creates a hold of one acquisition.
	 * @param key the lock key
	 * @param node the lock node
	 * @param fencingToken the hold's fencing token
	 * @param holder the holding thread, or {@code null} for a hold that belongs to no
	 * thread
	 * @param cohort the cohort that passes the node between the threads of this process,
	 * told to {@link LockCohort#retire retire} it each time the lock becomes uncertain,
	 * and that it is {@link LockCohort#lost lost}; {@code null} for a node that passes to
	 * no other thread anyway
	 */
	LockHold(String key, LockQueue.QueuedNode node, long fencingToken, @Nullable Thread holder,
			@Nullable LockCohort cohort) {
		this.key = key;
		this.node = node;
		this.fencingToken = fencingToken;
		this.holder = holder;
		this.cohort = cohort;
	}

	String key() {
		return this.key;
	}

	long fencingToken() {
		return this.fencingToken;
	}

	/**
	 * The lock node of the hold.
	 * @return the node
	 */
	LockQueue.QueuedNode node() {
		return this.node;
	}

	/**
	 * When the lock was acquired.
	 * @return the acquisition time
	 */
	Instant acquiredAt() {
		return Instant.ofEpochMilli(this.acquiredAtMillis);
	}

	LockNodeKind kind() {
		return this.node.kind();
	}

	/**
	 * Counts one more acquisition of the holding thread sharing this hold, unless the
	 * thread left the hold or it ended.
	 * @return whether the acquisition entered the hold; if not, it takes a hold of its
	 * own
	 */
	synchronized boolean enter() {
		if (this.ended || this.threadLeft) {
			return false;
		}
		this.acquisitions++;
		return true;
	}

	/**
	 * Releases one acquisition of the holding thread.
	 * @return {@link Change#ENDED} if it was the last acquisition,
	 * {@link Change#THREAD_LEFT} if only delayed releases are left, else
	 * {@link Change#STILL_HELD}
	 * @throws IllegalStateException if the holding thread has no acquisition left to
	 * release
	 */
	synchronized Change exit() {
		requireThreadAcquisition();
		this.acquisitions--;
		if (this.acquisitions == 0) {
			this.ended = true;
			return Change.ENDED;
		}
		return leftIfOnlyDelayed();
	}

	/**
	 * Counts one acquisition of the holding thread as released later, by
	 * {@link #exitDelayed()}: it keeps the lock, but not for its thread.
	 * @return {@link Change#THREAD_LEFT} if only delayed releases are left now, else
	 * {@link Change#STILL_HELD}
	 * @throws IllegalStateException if the holding thread has no acquisition left to
	 * release
	 */
	synchronized Change delayExit() {
		requireThreadAcquisition();
		this.delayedExits++;
		return leftIfOnlyDelayed();
	}

	/**
	 * Releases one acquisition whose release was delayed.
	 * @return {@link Change#ENDED} if it was the last acquisition, else
	 * {@link Change#STILL_HELD}
	 * @throws IllegalStateException if no release was delayed
	 */
	synchronized Change exitDelayed() {
		if (this.delayedExits == 0) {
			throw new IllegalStateException("No delayed release of " + this + " is left to end");
		}
		this.delayedExits--;
		this.acquisitions--;
		if (this.acquisitions == 0) {
			this.ended = true;
			return Change.ENDED;
		}
		return Change.STILL_HELD;
	}

	/**
	 * The acquisitions sharing this hold that are not released yet, delayed ones
	 * included.
	 * @return the number of acquisitions; {@code 0} once the hold ended
	 */
	synchronized int acquisitions() {
		return this.acquisitions;
	}

	private void requireThreadAcquisition() {
		if (this.acquisitions == this.delayedExits) {
			throw new IllegalStateException("No acquisition of " + this + " by its thread is left to release");
		}
	}

	private Change leftIfOnlyDelayed() {
		if (this.acquisitions == this.delayedExits) {
			this.threadLeft = true;
			return Change.THREAD_LEFT;
		}
		return Change.STILL_HELD;
	}

	/**
	 * The thread that holds the lock.
	 * @return the holding thread, or {@code null} for a hold that belongs to no thread
	 */
	@Nullable Thread holder() {
		return this.holder;
	}

	/**
	 * The ZooKeeper session that owns the lock node.
	 * @return the session id
	 */
	long sessionId() {
		return this.node.sessionId();
	}

	/**
	 * Why the lock counts as lost.
	 * @return the reason, or {@code null} while it is not lost
	 */
	@Nullable String lossReason() {
		return this.lossReason;
	}

	boolean isUncertain() {
		return (this.doubt.get() & 1) != 0;
	}

	/**
	 * How many doubts were raised about the lock: read it before asking ZooKeeper whether
	 * the lock is still held, and pass it to {@link #markCertain(long)} with the answer.
	 * @return the doubt generation
	 */
	long doubtGeneration() {
		return this.doubt.get() >>> 1;
	}

	/**
	 * Raises a doubt: the lock is uncertain, in a new doubt generation.
	 */
	void markUncertain() {
		this.doubt.updateAndGet((doubt) -> (((doubt >>> 1) + 1) << 1) | 1);
		retireNode();
	}

	/**
	 * Makes the lock certain again, unless a doubt was raised after the given generation.
	 * @param generation the {@link #doubtGeneration() doubt generation} read before the
	 * confirmation was asked for
	 * @return whether the lock became certain
	 */
	boolean markCertain(long generation) {
		return this.doubt.compareAndSet((generation << 1) | 1, generation << 1);
	}

	/**
	 * Declares the lock lost, once. The cohort then takes no more holders at the lock
	 * node, and lets the threads of this process that wait for the key queue a new node
	 * in ZooKeeper, as other processes' threads do, rather than wait for this hold to
	 * end.
	 * @param reason why the lock counts as lost
	 * @return whether this call declared it, rather than an earlier one
	 */
	boolean markLost(String reason) {
		synchronized (this) {
			if (this.lossReason != null) {
				return false;
			}
			this.lossReason = reason;
		}
		if (this.cohort != null) {
			this.cohort.lost(this.node);
		}
		return true;
	}

	private void retireNode() {
		if (this.cohort != null) {
			this.cohort.retire(this.node);
		}
	}

	/**
	 * Begins the hold once its acquisition is complete, unless the lock was declared lost
	 * meanwhile. Only a hold that began interrupts its holder when the lock is lost:
	 * before, the holder is still acquiring, and learns of the loss from the acquisition,
	 * which fails or starts again.
	 * @return whether the hold began; {@code false} if the lock was already lost
	 */
	synchronized boolean begin() {
		if (this.lossReason != null) {
			return false;
		}
		this.begun = true;
		return true;
	}

	/**
	 * Interrupts the holding thread, unless the hold has not begun, has ended or was left
	 * by its thread, or belongs to no thread.
	 */
	synchronized void interruptHolder() {
		if (this.begun && !this.ended && !this.threadLeft && this.holder != null) {
			this.holderInterrupted = true;
			this.holder.interrupt();
		}
	}

	/**
	 * Whether the lost-lock policy interrupted the holder. Final once the hold ended or
	 * its thread left it: the holder is never interrupted for it afterwards.
	 * @return whether the holder was interrupted because the lock was lost
	 */
	synchronized boolean holderInterrupted() {
		return this.holderInterrupted;
	}

	@Override
	public String toString() {
		return "LockHold[key=" + this.key + ", node=" + this.node.path() + ", fencingToken=" + fencingToken()
				+ ", session=0x" + Long.toHexString(sessionId()) + "]";
	}

}
