package dev.zklock;

import java.util.function.Supplier;

import dev.zklock.observation.DefaultLockObservationConvention;
import dev.zklock.observation.LockObservationContext;
import dev.zklock.observation.LockObservationContext.Outcome;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

/**
 * Observes the locks of a {@link LockTemplate}: each acquisition as
 * {@code distributed.lock.acquisition}, and each hold, from acquisition to release, as
 * {@code distributed.lock.hold} (see {@link DefaultLockObservationConvention}). With
 * {@link ObservationRegistry#NOOP} no context is even made.
 */
final class LockObservations {

	private static final Logger logger = LoggerFactory.getLogger(LockObservations.class);

	private final ObservationRegistry registry;

	LockObservations(ObservationRegistry registry) {
		this.registry = registry;
	}

	ObservationRegistry registry() {
		return this.registry;
	}

	/**
	 * Acquires a lock under the observation of its acquisition, then starts observing its
	 * hold.
	 * @param request the lock requested
	 * @param raiseLoss whether a loss of the lock is to be raised at its release
	 * @param acquisition acquires it
	 * @return the acquired lock, observed until its release
	 */
	ObservedLock acquire(LockRequest request, boolean raiseLoss, Supplier<ReleasableLock> acquisition) {
		if (this.registry.isNoop()) {
			// nothing observes: no observation is made, and none is stopped
			return new ObservedLock(acquisition.get(), request, raiseLoss, System.nanoTime(), Observation.NOOP);
		}
		Observation observation = start(DefaultLockObservationConvention.ACQUISITION, request);
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
		Observation hold = start(DefaultLockObservationConvention.HOLD, request);
		// counted from after the hold's observation started, so that a minimum hold time
		// is also the least that the observation measures
		long acquiredAt = System.nanoTime();
		return new ObservedLock(lock, request, raiseLoss, acquiredAt, hold);
	}

	/**
	 * Starts an observation. A handler that fails is logged and does not stop the
	 * locking, which must release whatever it acquired.
	 */
	private Observation start(DefaultLockObservationConvention convention, LockRequest request) {
		String name = (request.name() != null) ? request.name() : LockRequest.UNNAMED;
		Observation observation = Observation.createNotStarted(null, convention,
				() -> new LockObservationContext(name, request.type(), request.key()), this.registry);
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
	static void stop(Observation observation, Outcome outcome, @Nullable Throwable failure) {
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
