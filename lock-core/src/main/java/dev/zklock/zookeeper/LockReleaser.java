package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockManager;
import dev.zklock.zookeeper.LockQueue.QueuedNode;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Releases a registry's acquisitions, at once or after a delay on the registry's
 * scheduler: the last acquisition of a hold ends it, and hands its lock node to a waiting
 * thread of this process or sends its deletion to ZooKeeper.
 */
final class LockReleaser {

	// logs under the registry's name, which operators know and configure
	private static final Logger logger = LoggerFactory.getLogger(ZooKeeperLockRegistry.class);

	private final LockEntries entries;

	private final LockLossDetector lossDetector;

	private final HoldExchange holdExchange;

	private final ScheduledExecutorService scheduler;

	/**
	 * Run by a delayed release once it counted its exit: nothing, except in tests.
	 */
	private volatile Runnable delayedExitCounted = () -> {
	};

	LockReleaser(LockEntries entries, LockLossDetector lossDetector, HoldExchange holdExchange,
			ScheduledExecutorService scheduler) {
		this.entries = entries;
		this.lossDetector = lossDetector;
		this.holdExchange = holdExchange;
		this.scheduler = scheduler;
	}

	/**
	 * Releases one acquisition; the last one sharing a hold hands its lock node to a
	 * waiting thread of this process, or sends its deletion to ZooKeeper without waiting
	 * for the reply. The interrupt that the lost-lock policy gave the holder ends here;
	 * any other interrupt of the thread stays set.
	 */
	void release(LockEntry entry, LockHold hold) {
		try {
			switch (hold.exit()) {
				case STILL_HELD -> {
				}
				case THREAD_LEFT -> leaveThread(entry, hold);
				case ENDED -> {
					if (hold.holderInterrupted() && hold.holder() == Thread.currentThread()) {
						Thread.interrupted();
					}
					QueuedNode released = giveBack(entry, hold);
					if (released != null) {
						entry.queue.release(released);
					}
				}
			}
		}
		finally {
			this.entries.dispose(entry);
		}
	}

	/**
	 * Releases an acquisition after a delay, without waiting for ZooKeeper to confirm the
	 * deletion of its node. A thread whose last acquisition of its hold this is leaves
	 * the hold now: its later acquisitions of the key queue like any other's.
	 * @return a stage that completes once the release is done
	 */
	CompletableFuture<Void> releaseAfter(LockEntry entry, LockHold hold, Duration delay) {
		if (hold.delayExit() == LockHold.Change.THREAD_LEFT) {
			leaveThread(entry, hold);
		}
		CompletableFuture<Void> released = new CompletableFuture<>();
		try {
			scheduleRelease(entry, hold, delay, released);
		}
		catch (RejectedExecutionException ex) {
			logger.debug("Lock '{}' stays held until the ZooKeeper session ends: its registry closed before its "
					+ "delayed release was scheduled", AbbreviatedKey.of(hold.key()));
		}
		return released;
	}

	/**
	 * Lets a test run a step on the scheduler's thread each time a delayed release has
	 * counted its exit, before it acts on the count: a seam that forces interleavings.
	 * @param step the step
	 */
	void onDelayedExitCounted(Runnable step) {
		this.delayedExitCounted = step;
	}

	private void scheduleRelease(LockEntry entry, LockHold hold, Duration delay, CompletableFuture<Void> released) {
		this.scheduler.schedule(() -> {
			try {
				LockHold.Change change = hold.exitDelayed();
				this.delayedExitCounted.run();
				if (change == LockHold.Change.ENDED) {
					QueuedNode node = giveBack(entry, hold);
					if (node != null) {
						entry.queue.abandon(node);
					}
				}
			}
			finally {
				this.entries.dispose(entry);
				released.complete(null);
			}
		}, ((delay.compareTo(LockManager.LONGEST_WAIT) > 0) ? LockManager.LONGEST_WAIT : delay).toNanos(),
				TimeUnit.NANOSECONDS);
	}

	/**
	 * The holding thread is done with a hold that stays held until delayed releases end:
	 * it no longer finds it to re-enter (the hold refuses it anyway), and the lost-lock
	 * policy no longer interrupts it.
	 */
	private void leaveThread(LockEntry entry, LockHold hold) {
		Thread holder = hold.holder();
		if (holder != null) {
			entry.forgetHold(holder, hold);
			if (hold.holderInterrupted() && holder == Thread.currentThread()) {
				Thread.interrupted();
			}
		}
	}

	/**
	 * Gives back the lock node of a hold that ended: it passes to a waiting thread of
	 * this process if the lock is still held as far as this process can tell.
	 * @return the node to release to ZooKeeper, or {@code null} if it stays held
	 */
	private @Nullable QueuedNode giveBack(LockEntry entry, LockHold hold) {
		long checkedAt = this.lossDetector.doubts();
		boolean handOff = this.lossDetector.isHeld(hold);
		Thread holder = hold.holder();
		if (holder != null) {
			entry.forgetHold(holder, hold);
		}
		this.lossDetector.unregister(hold);
		return this.holdExchange.giveBack(entry, hold, handOff, checkedAt);
	}

}
