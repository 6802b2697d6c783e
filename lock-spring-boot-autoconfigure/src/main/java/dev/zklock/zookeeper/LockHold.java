package dev.zklock.zookeeper;

import java.time.Instant;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.ReentrantLock;

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

	private final Runnable inDoubt;

	private final Instant acquiredAt = Instant.now();

	private final ReentrantLock lock = new ReentrantLock();

	private final AtomicInteger acquisitions = new AtomicInteger(1);

	private final AtomicInteger delayedExits = new AtomicInteger();

	private volatile @Nullable String lossReason;

	private volatile boolean uncertain;

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
	 * @param inDoubt runs each time the lock becomes uncertain or lost: the node then
	 * passes to no other thread of this process
	 */
	LockHold(String key, LockQueue.QueuedNode node, long fencingToken, @Nullable Thread holder, Runnable inDoubt) {
		this.key = key;
		this.node = node;
		this.fencingToken = fencingToken;
		this.holder = holder;
		this.inDoubt = inDoubt;
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
		return this.acquiredAt;
	}

	LockNodeKind kind() {
		return this.node.kind();
	}

	/**
	 * Counts one more acquisition sharing this hold.
	 */
	void enter() {
		this.acquisitions.incrementAndGet();
	}

	/**
	 * Counts one acquisition less.
	 * @return whether it was the last, which ends the hold
	 */
	boolean exit() {
		return this.acquisitions.decrementAndGet() == 0;
	}

	/**
	 * Counts one acquisition as released later, by {@link #exitDelayed()}: it keeps the
	 * lock, but not for its thread.
	 */
	void delayExit() {
		this.delayedExits.incrementAndGet();
	}

	/**
	 * Counts one acquisition whose release was delayed less.
	 * @return whether it was the last acquisition, which ends the hold
	 */
	boolean exitDelayed() {
		this.delayedExits.decrementAndGet();
		return exit();
	}

	/**
	 * Whether every acquisition left is one whose release was delayed: the holding thread
	 * is done with the lock, which stays held only until those delays end.
	 * @return whether only delayed releases are left
	 */
	boolean onlyDelayedLeft() {
		return this.acquisitions.get() == this.delayedExits.get();
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
		return this.uncertain;
	}

	void markUncertain() {
		this.uncertain = true;
		this.inDoubt.run();
	}

	void markCertain() {
		this.uncertain = false;
	}

	/**
	 * Declares the lock lost, once.
	 * @param reason why the lock counts as lost
	 * @return whether this call declared it, rather than an earlier one
	 */
	boolean markLost(String reason) {
		this.lock.lock();
		try {
			if (this.lossReason != null) {
				return false;
			}
			this.lossReason = reason;
		}
		finally {
			this.lock.unlock();
		}
		this.inDoubt.run();
		return true;
	}

	/**
	 * Begins the hold once its acquisition is complete, unless the lock was declared lost
	 * meanwhile. Only a hold that began interrupts its holder when the lock is lost:
	 * before, the holder is still acquiring, and learns of the loss from the acquisition,
	 * which fails or starts again.
	 * @return whether the hold began; {@code false} if the lock was already lost
	 */
	boolean begin() {
		this.lock.lock();
		try {
			if (this.lossReason != null) {
				return false;
			}
			this.begun = true;
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Interrupts the holding thread, unless the hold has not begun, has ended, or belongs
	 * to no thread.
	 */
	void interruptHolder() {
		this.lock.lock();
		try {
			if (this.begun && !this.ended && this.holder != null) {
				this.holderInterrupted = true;
				this.holder.interrupt();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Ends the hold: the holder is never interrupted for it afterwards.
	 * @return whether the holder was interrupted because the lock was lost
	 */
	boolean end() {
		this.lock.lock();
		try {
			this.ended = true;
			return this.holderInterrupted;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public String toString() {
		return "LockHold[key=" + this.key + ", node=" + this.node.path() + ", fencingToken=" + fencingToken()
				+ ", session=0x" + Long.toHexString(sessionId()) + "]";
	}

}
