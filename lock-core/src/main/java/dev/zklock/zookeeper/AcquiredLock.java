package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

import dev.zklock.ReleasableLock;
import org.jspecify.annotations.Nullable;

/**
 * One acquisition of a ZooKeeper lock, to be released once: by the acquiring thread, or
 * by any thread for a detached acquisition.
 */
public final class AcquiredLock implements ReleasableLock {

	private final LockKey lockKey;

	private final LockKey.Hold hold;

	private final Keeper keeper;

	private static final AtomicIntegerFieldUpdater<AcquiredLock> RELEASED = AtomicIntegerFieldUpdater
		.newUpdater(AcquiredLock.class, "released");

	/** {@code 1} once released. */
	private volatile int released;

	AcquiredLock(LockKey lockKey, LockKey.Hold hold, Keeper keeper) {
		this.lockKey = lockKey;
		this.hold = hold;
		this.keeper = keeper;
	}

	LockKey lockKey() {
		return this.lockKey;
	}

	@Override
	public String key() {
		return this.hold.key();
	}

	@Override
	public long fencingToken() {
		return this.hold.fencingToken();
	}

	@Override
	public boolean isValid() {
		return this.released == 0 && this.keeper.isHeld(this.hold);
	}

	@Override
	public boolean isLost() {
		if (this.released == 0) {
			this.keeper.isHeld(this.hold);
		}
		return this.hold.lossReason() != null;
	}

	@Override
	public @Nullable String getLossReason() {
		return this.hold.lossReason();
	}

	/**
	 * Tells when this hold stops being certain: a stage that completes, with the reason,
	 * the first time the registry's loss detection finds the lock uncertain or lost (the
	 * connection to ZooKeeper suspended, the session ended, or the process paused for
	 * half the session timeout), whatever the {@link LostLockPolicy}'s trigger; it
	 * completes once, and a hold made certain again by a reconnection in the same session
	 * does not undo it. It never completes for a hold that ends by its release.
	 * Dependents added with the stage's non-async methods run on the thread that found
	 * the doubt (Curator's event thread, the pause watcher, or a caller of
	 * {@link #isValid()}), or at once if it completed already: they must be short, and
	 * must not wait for ZooKeeper.
	 * <p>
	 * This is how {@link LeaderElection} revokes leadership without polling
	 * {@link #isValid()}.
	 * @return a stage completed with the reason of the first doubt or loss of this hold
	 */
	public CompletionStage<String> whenInvalidated() {
		return this.hold.invalidation().minimalCompletionStage();
	}

	/**
	 * Releases this acquisition; the ZooKeeper lock is released when the last acquisition
	 * sharing its hold is (the outermost of a thread's reentrant ones), unless it passes
	 * to a waiting thread of this process (see {@link HandOffPolicy}). Must be called by
	 * the thread that acquired the lock. Later calls do nothing. Never throws, and never
	 * waits for ZooKeeper: it sends the deletion of the lock node and returns. Another
	 * process finds the lock free once ZooKeeper has applied the deletion; this process's
	 * next acquisition of the key is applied after it. A deletion that fails is logged
	 * and left to Curator, which keeps deleting the lock node in the background
	 * (ZooKeeper deletes it anyway when the session ends). A release after the lock was
	 * lost is no error.
	 */
	@Override
	public void release() {
		if (RELEASED.compareAndSet(this, 0, 1)) {
			this.keeper.release(this.lockKey, this.hold);
		}
	}

	/**
	 * Releases this acquisition after a delay, on a background thread, without waiting
	 * for ZooKeeper to confirm it. For an acquisition of the calling thread, the thread
	 * is done with the lock now: if this was its outermost acquisition, it no longer
	 * re-enters the lock, and its next acquisition of the key waits for the delay like
	 * any other. Later calls of either release method do nothing.
	 * @param delay how long to keep the lock from now
	 * @return a stage that completes on the registry's thread once the acquisition is
	 * released: its hold ended, and its node handed to a waiter of this process or its
	 * deletion sent to ZooKeeper; complete at once if the acquisition was already
	 * released, and never complete if the registry closes before the delay ends (the
	 * session's end then deletes the node)
	 * @throws IllegalArgumentException if the delay is {@code null} or negative; the
	 * acquisition is then still held, to be released again
	 */
	@Override
	public CompletionStage<@Nullable Void> releaseAfter(Duration delay) {
		if (delay == null) {
			throw new IllegalArgumentException("'delay' must not be null");
		}
		if (delay.isNegative()) {
			throw new IllegalArgumentException("'delay' must not be negative, but was " + delay);
		}
		if (RELEASED.compareAndSet(this, 0, 1)) {
			return this.keeper.releaseAfter(this.lockKey, this.hold, delay);
		}
		return CompletableFuture.completedStage(null);
	}

	@Override
	public String toString() {
		return "AcquiredLock[key=" + key() + ", fencingToken=" + fencingToken() + "]";
	}

	/**
	 * Keeps the holds of acquisitions: the registry that acquired them, which tells
	 * whether a hold is still held and ends it, now or after a delay.
	 */
	interface Keeper {

		/**
		 * Whether the hold is still held as far as the process can tell (the loss
		 * detector's answer).
		 */
		boolean isHeld(LockKey.Hold hold);

		/** Releases one acquisition of a hold. */
		void release(LockKey lockKey, LockKey.Hold hold);

		/**
		 * Releases one acquisition of a hold after a delay; the stage completes once the
		 * release is done.
		 */
		CompletableFuture<@Nullable Void> releaseAfter(LockKey lockKey, LockKey.Hold hold, Duration delay);

	}

}
