package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.ScheduledExecutorService;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockAcquisitionException;
import dev.zklock.LockException;
import dev.zklock.LockManager;
import dev.zklock.LockTimeoutException;
import org.jspecify.annotations.Nullable;

/**
 * Acquires the locks that a registry's callers ask for: checks each call, re-enters the
 * owner's hold of the key where the {@link LockReentry} allows it, or else takes a hold
 * through the {@link HoldExchange} while operators see the wait, and reports every
 * failure as a {@link LockAcquisitionException}.
 */
final class RegistryAcquisitions {

	private final LockEntries entries;

	private final LockLossDetector lossDetector;

	private final HoldExchange holdExchange;

	private final LockReleaser releaser;

	private final LockReentry reentry;

	private final LockWaits waits;

	private final ScheduledExecutorService scheduler;

	private volatile @Nullable String applicationName;

	/**
	 * Creates the acquisitions of a registry.
	 * @param entries the registry's entries
	 * @param lossDetector the registry's loss detector
	 * @param scheduler the registry's scheduler, which runs delayed releases, and whose
	 * shutdown closes the registry
	 * @param waits the waits that operators see
	 */
	RegistryAcquisitions(LockEntries entries, LockLossDetector lossDetector, ScheduledExecutorService scheduler,
			LockWaits waits) {
		this.entries = entries;
		this.lossDetector = lossDetector;
		this.holdExchange = new HoldExchange(lossDetector);
		this.releaser = new LockReleaser(entries, lossDetector, this.holdExchange, scheduler);
		this.reentry = new LockReentry(entries, lossDetector);
		this.waits = waits;
		this.scheduler = scheduler;
	}

	/**
	 * Lets a test run a step on the scheduler's thread each time a delayed release has
	 * counted its exit, before it acts on the count.
	 * @param step the step
	 * @see LockReleaser#onDelayedExitCounted(Runnable)
	 */
	void onDelayedExitCounted(Runnable step) {
		this.releaser.onDelayedExitCounted(step);
	}

	/**
	 * Names the application in the lock nodes that the acquisitions queue in ZooKeeper.
	 * @param applicationName the application's name, or {@code null} for none
	 */
	void setApplicationName(@Nullable String applicationName) {
		this.applicationName = applicationName;
	}

	/**
	 * Acquires a lock of the key, waiting at most the wait time, all included.
	 * @param key the lock key
	 * @param kind the kind of lock
	 * @param requestedWaitTime how long to wait; a wait time beyond
	 * {@link LockManager#LONGEST_WAIT} waits without bound
	 * @param owner the thread that will own the acquisition, which re-enters its hold of
	 * the key, or {@code null} for an acquisition that belongs to no thread
	 * @return the acquisition
	 * @throws LockTimeoutException if other holders kept the lock for the wait time
	 * @throws LockAcquisitionException if the lock could not be acquired otherwise, or
	 * the registry is closed
	 * @throws IllegalStateException if the owner holds the key's read lock and asks for
	 * its exclusive (write) lock
	 * @throws IllegalArgumentException if the key is {@code null} or blank, or the wait
	 * time {@code null} or negative
	 */
	AcquiredLock acquire(String key, LockNodeKind kind, Duration requestedWaitTime, @Nullable Thread owner) {
		if (key == null || key.isBlank()) {
			throw new IllegalArgumentException("Lock key must not be null or blank");
		}
		if (requestedWaitTime == null) {
			throw new IllegalArgumentException("'waitTime' must not be null");
		}
		if (requestedWaitTime.isNegative()) {
			throw new IllegalArgumentException("Wait time must not be negative, but was " + requestedWaitTime);
		}
		if (this.scheduler.isShutdown()) {
			throw new LockAcquisitionException(key,
					"Could not acquire lock '" + AbbreviatedKey.of(key) + "': the lock registry is closed", null);
		}
		Duration waitTime = (requestedWaitTime.compareTo(LockManager.LONGEST_WAIT) > 0) ? LockManager.LONGEST_WAIT
				: requestedWaitTime;
		long deadline = System.nanoTime() + waitTime.toNanos();
		LockEntry entry = this.entries.retain(key);
		LockHold current = this.reentry.reenter(entry, kind, owner);
		if (current != null) {
			return new AcquiredLock(this.releaser, this.lossDetector, entry, current);
		}
		boolean acquired = false;
		LockWait wait = this.waits.begin(key, kind, owner);
		try {
			LockHold hold = this.holdExchange.take(entry, key, kind, this.applicationName, waitTime, deadline, owner);
			this.reentry.keep(entry, kind, owner, hold);
			acquired = true;
			return new AcquiredLock(this.releaser, this.lossDetector, entry, hold);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new LockAcquisitionException(key, "Interrupted while acquiring lock '" + AbbreviatedKey.of(key) + "'",
					ex);
		}
		catch (LockException ex) {
			throw ex;
		}
		catch (LockNodeKind.ConflictException ex) {
			throw new LockAcquisitionException(key,
					"Could not acquire lock '" + AbbreviatedKey.of(key) + "': " + ex.getMessage(), ex);
		}
		catch (Exception ex) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + AbbreviatedKey.of(key) + "': " + ex,
					ex);
		}
		finally {
			this.waits.end(wait);
			if (!acquired) {
				this.entries.dispose(entry);
			}
		}
	}

}
