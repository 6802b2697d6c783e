package dev.zklock;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import dev.zklock.observation.LockObservationContext.Outcome;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * A lock acquired by a {@link LockTemplate}, with the time of its acquisition and the
 * observation of its hold: released once, after its minimum hold time if it has one,
 * observed until then, and its loss, or the failure of the work under it, told to the
 * caller.
 */
final class ObservedLock {

	private final ReleasableLock lock;

	private final LockRequest request;

	private final boolean raiseLoss;

	private final long acquiredAt;

	private final Observation hold;

	ObservedLock(ReleasableLock lock, LockRequest request, boolean raiseLoss, long acquiredAt, Observation hold) {
		this.lock = lock;
		this.request = request;
		this.raiseLoss = raiseLoss;
		this.acquiredAt = acquiredAt;
		this.hold = hold;
	}

	ReleasableLock handle() {
		return this.lock;
	}

	/**
	 * Ends the hold of a lock whose protected code returned on the calling thread.
	 * @return the exception to raise if the lock was lost meanwhile and losses are
	 * raised, else {@code null}
	 */
	@Nullable LockLostException end() {
		CurrentLocks.remove(this.lock);
		return release();
	}

	/**
	 * Ends the hold of a lock whose protected code failed on the calling thread, and
	 * tells how the failure reaches the caller: unchecked exceptions and errors as they
	 * are, checked ones wrapped, with the interrupt flag that an
	 * {@link InterruptedException} cleared set again.
	 * @param failure what the protected code threw
	 * @param what what the work did, for the message of a wrapped exception
	 * @return the unchecked exception to throw
	 */
	RuntimeException failed(Throwable failure, String what) {
		addLoss(failure, end());
		if (failure instanceof RuntimeException unchecked) {
			return unchecked;
		}
		if (failure instanceof Error error) {
			throw error;
		}
		if (failure instanceof InterruptedException) {
			Thread.currentThread().interrupt();
		}
		return new UndeclaredThrowableException(failure,
				"Work under lock '" + AbbreviatedKey.of(this.lock.key()) + "' " + what);
	}

	/**
	 * Keeps the lock until asynchronous work completes, then releases it.
	 * @param <T> the type of the work's result
	 * @param work the work's result
	 * @return the work's result, completed after the release; completed exceptionally
	 * with {@link LockLostException} if the lock was lost meanwhile and losses are raised
	 */
	<T extends @Nullable Object> CompletableFuture<T> releaseOnCompletion(CompletionStage<T> work) {
		CompletableFuture<T> result = new CompletableFuture<>();
		work.whenComplete((value, failure) -> {
			LockLostException lost = release();
			if (failure != null) {
				addLoss(failure, lost);
				result.completeExceptionally(failure);
			}
			else if (lost != null) {
				result.completeExceptionally(lost);
			}
			else {
				result.complete(value);
			}
		});
		return result;
	}

	/**
	 * Releases the lock, at once or once its minimum hold time has passed, and ends the
	 * observation of its hold then.
	 * @return the exception to raise if the lock was lost meanwhile and losses are
	 * raised, else {@code null}
	 */
	@Nullable LockLostException release() {
		boolean lost = this.raiseLoss && this.lock.isLost();
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
	 * Tells the caller of failed protected code that it also lost its lock, unless the
	 * failure is that very loss, raised by an inner hold of the same lock.
	 */
	private static void addLoss(Throwable failure, @Nullable LockLostException lost) {
		if (lost != null && !(failure instanceof LockLostException inner && inner.getKey().equals(lost.getKey()))) {
			failure.addSuppressed(lost);
		}
	}

	/**
	 * Ends the observation of the hold, reading whether the lock was lost without asking
	 * the registry again (which could declare a loss of its own).
	 */
	private void endHold() {
		LockObservations.stop(this.hold, (this.lock.getLossReason() != null) ? Outcome.LOST : Outcome.RELEASED, null);
	}

}
