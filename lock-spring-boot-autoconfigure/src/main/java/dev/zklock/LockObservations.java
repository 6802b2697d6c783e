package dev.zklock;

import java.util.function.Supplier;

import dev.zklock.observation.DefaultLockObservationConvention;
import dev.zklock.observation.LockObservationContext;
import dev.zklock.observation.LockObservationContext.Outcome;
import dev.zklock.zookeeper.AcquiredLock;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

/**
 * Observes the locks of a {@link LockTemplate}: each acquisition as
 * {@code distributed.lock.acquisition}, and each hold, from acquisition to release, as
 * {@code distributed.lock.hold} (see {@link DefaultLockObservationConvention}). With
 * {@link ObservationRegistry#NOOP} no context is even made.
 */
final class LockObservations {

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
	 * @param acquisition acquires it
	 * @return the acquired lock, observed until its release
	 */
	ObservedLock acquire(LockRequest request, Supplier<AcquiredLock> acquisition) {
		Observation observation = start(DefaultLockObservationConvention.ACQUISITION, request);
		AcquiredLock lock;
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
		long acquiredAt = System.nanoTime();
		return new ObservedLock(lock, request, acquiredAt, start(DefaultLockObservationConvention.HOLD, request));
	}

	private Observation start(DefaultLockObservationConvention convention, LockRequest request) {
		String name = (request.name() != null) ? request.name() : LockRequest.UNNAMED;
		return Observation
			.createNotStarted(null, convention, () -> new LockObservationContext(name, request.type(), request.key()),
					this.registry)
			.start();
	}

	/**
	 * Ends an observation with its outcome, and the failure that ended it, if any.
	 */
	static void stop(Observation observation, Outcome outcome, @Nullable Throwable failure) {
		if (observation.getContext() instanceof LockObservationContext context) {
			context.setOutcome(outcome);
		}
		if (failure != null) {
			observation.error(failure);
		}
		observation.stop();
	}

}
