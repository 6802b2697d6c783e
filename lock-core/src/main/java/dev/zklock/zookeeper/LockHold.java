package dev.zklock.zookeeper;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * One thread's hold of a key's ZooKeeper lock, from its outermost acquisition to its
 * outermost release; reentrant acquisitions share it. It knows its lock node and the
 * ZooKeeper session that owns it, and whether the lock was lost or became uncertain
 * since.
 */
final class LockHold {

	private final String key;

	private final LockQueue.QueuedNode node;

	private final long fencingToken;

	private final @Nullable Thread holder;

	private static final AtomicIntegerFieldUpdater<LockHold> ACQUISITIONS = AtomicIntegerFieldUpdater
		.newUpdater(LockHold.class, "acquisitions");

	private static final AtomicIntegerFieldUpdater<LockHold> DELAYED_EXITS = AtomicIntegerFieldUpdater
		.newUpdater(LockHold.class, "delayedExits");

	private final @Nullable LockCohort cohort;

	private final long acquiredAtMillis = System.currentTimeMillis();

	private volatile int acquisitions = 1;

	private volatile int delayedExits;

	private volatile @Nullable String lossReason;

	/**
	 * The doubt about the lock in one word: the doubt generation, which each
	 * {@link #markUncertain()} advances, shifted left by one, and in the lowest bit
	 * whether the lock is uncertain. A confirmation makes certain only the generation it
	 * confirmed, by compare-and-set, so a doubt raised after it asked is never erased.
	 */
	private final AtomicLong doubt = new AtomicLong();

	// begun, ended and holderInterrupted are guarded by the monitor of this hold

	private boolean begun;

	private boolean ended;

	private boolean holderInterrupted;

	/**
	 * Creates a hold.
	 * @param key the lock key
	 * @param node the lock node
	 * @param fencingToken the hold's fencing token
	 * @param holder the holding thread, or {@code null} for a hold that belongs to no
	 * thread
	 * @param cohort the cohort that passes the node between the threads of this process,
	 * told to {@link LockCohort#retire retire} it each time the lock becomes uncertain or
	 * lost; {@code null} for a node that passes to no other thread anyway
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
	 * Counts one more acquisition sharing this hold.
	 */
	void enter() {
		ACQUISITIONS.incrementAndGet(this);
	}

	/**
	 * Counts one acquisition less.
	 * @return whether it was the last, which ends the hold
	 */
	boolean exit() {
		return ACQUISITIONS.decrementAndGet(this) == 0;
	}

	/**
	 * Counts one acquisition as released later, by {@link #exitDelayed()}: it keeps the
	 * lock, but not for its thread.
	 */
	void delayExit() {
		DELAYED_EXITS.incrementAndGet(this);
	}

	/**
	 * Counts one acquisition whose release was delayed less.
	 * @return whether it was the last acquisition, which ends the hold
	 */
	boolean exitDelayed() {
		DELAYED_EXITS.decrementAndGet(this);
		return exit();
	}

	/**
	 * Whether every acquisition left is one whose release was delayed: the holding thread
	 * is done with the lock, which stays held only until those delays end.
	 * @return whether only delayed releases are left
	 */
	boolean onlyDelayedLeft() {
		return this.acquisitions == this.delayedExits;
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
	 * Declares the lock lost, once.
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
		retireNode();
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
	 * Interrupts the holding thread, unless the hold has not begun, has ended, or belongs
	 * to no thread.
	 */
	synchronized void interruptHolder() {
		if (this.begun && !this.ended && this.holder != null) {
			this.holderInterrupted = true;
			this.holder.interrupt();
		}
	}

	/**
	 * Ends the hold: the holder is never interrupted for it afterwards.
	 * @return whether the holder was interrupted because the lock was lost
	 */
	synchronized boolean end() {
		this.ended = true;
		return this.holderInterrupted;
	}

	@Override
	public String toString() {
		return "LockHold[key=" + this.key + ", node=" + this.node.path() + ", fencingToken=" + fencingToken()
				+ ", session=0x" + Long.toHexString(sessionId()) + "]";
	}

}
