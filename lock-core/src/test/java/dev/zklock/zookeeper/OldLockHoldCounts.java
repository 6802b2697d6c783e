package dev.zklock.zookeeper;

import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;

/**
 * The count logic of a hold as it was before the count moved into one place under one
 * monitor, kept to show that {@link LockHoldModelCheckTests}' checker finds its race: two
 * atomic counters changed and read apart, and a mapping of the holding thread that
 * {@code LockReentry} looked up before it counted a re-entry.
 */
final class OldLockHoldCounts implements LockHoldModelCheckTests.HoldCounts {

	private static final AtomicIntegerFieldUpdater<OldLockHoldCounts> ACQUISITIONS = AtomicIntegerFieldUpdater
		.newUpdater(OldLockHoldCounts.class, "acquisitions");

	private static final AtomicIntegerFieldUpdater<OldLockHoldCounts> DELAYED_EXITS = AtomicIntegerFieldUpdater
		.newUpdater(OldLockHoldCounts.class, "delayedExits");

	private volatile int acquisitions = 1;

	private volatile int delayedExits;

	/** Whether the holding thread's next acquisition finds the hold to re-enter. */
	private volatile boolean mapped = true;

	@Override
	public boolean reenter() {
		if (!this.mapped) {
			return false;
		}
		ACQUISITIONS.incrementAndGet(this);
		return true;
	}

	@Override
	public boolean release() {
		if (ACQUISITIONS.decrementAndGet(this) != 0) {
			if (onlyDelayedLeft()) {
				this.mapped = false;
			}
			return false;
		}
		this.mapped = false;
		return true;
	}

	@Override
	public void delayRelease() {
		DELAYED_EXITS.incrementAndGet(this);
		if (onlyDelayedLeft()) {
			this.mapped = false;
		}
	}

	@Override
	public boolean releaseDelayed() {
		DELAYED_EXITS.decrementAndGet(this);
		if (ACQUISITIONS.decrementAndGet(this) != 0) {
			return false;
		}
		this.mapped = false;
		return true;
	}

	@Override
	public int acquisitions() {
		return this.acquisitions;
	}

	private boolean onlyDelayedLeft() {
		return this.acquisitions == this.delayedExits;
	}

}
