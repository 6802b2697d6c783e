package dev.zklock;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import dev.zklock.observation.LockObservationContext.Outcome;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * A lock acquired by a {@link LockTemplate}, with the time of its acquisition and the
 * observation of its hold: released once, after its minimum hold time if it has one, and
 * observed until then.
 */
final class ObservedLock {

	private final ReleasableLock lock;

	private final LockRequest request;

	private final long acquiredAt;

	private final Observation hold;

	ObservedLock(ReleasableLock lock, LockRequest request, long acquiredAt, Observation hold) {
		this.lock = lock;
		this.request = request;
		this.acquiredAt = acquiredAt;
		this.hold = hold;
	}

	ReleasableLock handle() {
		return this.lock;
	}

	/**
	 * Releases the lock, at once or once its minimum hold time has passed, and ends the
	 * observation of its hold then.
	 * @param raiseLoss whether a loss of the lock is to be raised
	 * @return the exception to raise if the lock was lost meanwhile and losses are
	 * raised, else {@code null}
	 */
	@Nullable LockLostException release(boolean raiseLoss) {
		boolean lost = raiseLoss && this.lock.isLost();
		Duration holdFor = this.request.holdAtLeast().minusNanos(System.nanoTime() - this.acquiredAt);
		if (holdFor.compareTo(Duration.ZERO) > 0) {
			CompletionStage<Void> released = this.lock.releaseAfter(holdFor);
			if (!this.hold.isNoop()) {
				released.thenRun(this::endHold);
			}
		}
		else {
			this.lock.release();
			endHold();
		}
		return lost ? new LockLostException(this.lock.key(), this.lock.fencingToken(), this.lock.getLossReason())
				: null;
	}

	/**
	 * Ends the observation of the hold, reading whether the lock was lost without asking
	 * the registry again (which could declare a loss of its own).
	 */
	private void endHold() {
		LockObservations.stop(this.hold, (this.lock.getLossReason() != null) ? Outcome.LOST : Outcome.RELEASED, null);
	}

}
