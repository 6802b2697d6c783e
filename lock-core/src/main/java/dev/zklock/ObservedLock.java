package dev.zklock;

import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;

import java.util.function.Supplier;

import dev.zklock.observation.DefaultLockObservationConvention;
import dev.zklock.observation.LockObservationContext;
import dev.zklock.observation.LockObservationContext.Outcome;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A lock acquired by a {@link LockTemplate}, with the time of its acquisition and the
 * observation of its hold: released once, after its minimum hold time if it has one,
 * observed until then, and its loss, or the failure of the work under it, told to the
 * caller. Each acquisition is observed as {@code distributed.lock.acquisition}, and each
 * hold, from acquisition to release, as {@code distributed.lock.hold} (see
 * {@link DefaultLockObservationConvention}); with {@link ObservationRegistry#NOOP} no
 * observation is even made.
 */
final class ObservedLock {

	private static final Logger logger = LoggerFactory.getLogger(ObservedLock.class);

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
	 * Ends the hold of a lock whose protected code returned on the calling thread;
	 * returns the loss to raise, if any.
	 */
	@Nullable LockLostException end() {
		CurrentLocks.remove(this.lock);
		return release();
	}

	/**
	 * Ends the hold of a lock whose protected code failed on the calling thread, and
	 * returns how the failure reaches the caller: unchecked exceptions and errors as they
	 * are, checked ones wrapped (saying {@code what} the work did), with the interrupt
	 * flag that an {@link InterruptedException} cleared set again.
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
	 * Keeps the lock until asynchronous work completes, then releases it: the result
	 * completes after the release, exceptionally with {@link LockLostException} if the
	 * lock was lost meanwhile and losses are raised.
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
	 * observation of its hold then; returns the loss to raise, if any.
	 */
	@Nullable LockLostException release() {
		boolean lost = this.raiseLoss && this.lock.isLost();
		Duration holdFor = this.request.holdAtLeast().minusNanos(System.nanoTime() - this.acquiredAt);
		if (holdFor.compareTo(Duration.ZERO) > 0) {
			CompletionStage<@Nullable Void> released = this.lock.releaseAfter(holdFor);
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
		stop(this.hold, (this.lock.getLossReason() != null) ? Outcome.LOST : Outcome.RELEASED, null);
	}

	/**
	 * Acquires a lock under the observation of its acquisition, then observes its hold
	 * until its release; {@link ObservationRegistry#NOOP} makes no observation.
	 */
	static ObservedLock acquire(ObservationRegistry registry, LockRequest request, boolean raiseLoss,
			Supplier<ReleasableLock> acquisition) {
		if (registry.isNoop()) {
			// nothing observes: no observation is made, and none is stopped
			return new ObservedLock(acquisition.get(), request, raiseLoss, System.nanoTime(), Observation.NOOP);
		}
		Observation observation = start(registry, DefaultLockObservationConvention.ACQUISITION, request);
		ReleasableLock lock;
		try {
			lock = acquisition.get();
		}
		catch (LockTimeoutException ex) {
			stop(observation, Outcome.TIMED_OUT, ex);
			throw ex;
		}
		catch (RuntimeException | Error ex) {
			stop(observation, Outcome.FAILED, ex);
			throw ex;
		}
		stop(observation, Outcome.ACQUIRED, null);
		Observation hold = start(registry, DefaultLockObservationConvention.HOLD, request);
		// counted from after the hold's observation started, so that a minimum hold time
		// is also the least that the observation measures
		long acquiredAt = System.nanoTime();
		return new ObservedLock(lock, request, raiseLoss, acquiredAt, hold);
	}

	/**
	 * Starts an observation. A handler that fails is logged and does not stop the
	 * locking, which must release whatever it acquired.
	 */
	private static Observation start(ObservationRegistry registry, DefaultLockObservationConvention convention,
			LockRequest request) {
		String name = (request.name() != null) ? request.name() : LockRequest.UNNAMED;
		Observation observation = Observation.createNotStarted(null, convention,
				() -> new LockObservationContext(name, request.type(), request.key()), registry);
		try {
			observation.start();
		}
		catch (RuntimeException ex) {
			logger.warn("An observation handler failed at the start of {} for lock '{}'; the lock is not affected",
					observation.getContext().getName(), AbbreviatedKey.of(request.key()), ex);
		}
		return observation;
	}

	/**
	 * Ends an observation with its outcome, and the failure that ended it, if any. A
	 * handler that fails is logged: the lock's own outcome, or the exception of its
	 * protected code, is what reaches the caller.
	 */
	private static void stop(Observation observation, Outcome outcome, @Nullable Throwable failure) {
		if (observation.isNoop()) {
			return;
		}
		try {
			if (observation.getContext() instanceof LockObservationContext context) {
				context.setOutcome(outcome);
			}
			if (failure != null) {
				observation.error(failure);
			}
			observation.stop();
		}
		catch (RuntimeException ex) {
			logger.warn("An observation handler failed at the end of {} (outcome {}); the lock is not affected",
					observation.getContext().getName(), outcome, ex);
		}
	}

}
