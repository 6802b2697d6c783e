package dev.zklock.observation;

import java.util.Locale;

import io.micrometer.common.KeyValues;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationConvention;

/**
 * Names the two observations of a distributed lock and their tags. With Micrometer's
 * meter handler (Spring Boot's actuator registers it), each observation makes a timer of
 * its name and a long task timer of its name and {@code .active}:
 * <ul>
 * <li>{@link #ACQUISITION} ({@code distributed.lock.acquisition}): waiting for a lock,
 * from the request until it is acquired or given up; the active count is the number of
 * callers waiting;</li>
 * <li>{@link #HOLD} ({@code distributed.lock.hold}): holding it, from its acquisition to
 * its release (after the minimum hold time, if any); the active count is the number of
 * holds.</li>
 * </ul>
 * Tags: {@code name} (the lock's name), {@code type} ({@code exclusive}, {@code read},
 * {@code write} or {@code semaphore}) and, once ended, {@code outcome} ({@code acquired},
 * {@code timed_out} or {@code failed} for an acquisition, {@code released} or
 * {@code lost} for a hold). Never the key.
 *
 * @see LockObservationContext
 */
public final class DefaultLockObservationConvention implements ObservationConvention<LockObservationContext> {

	/** The convention of {@code distributed.lock.acquisition}, the wait for a lock. */
	public static final DefaultLockObservationConvention ACQUISITION = new DefaultLockObservationConvention(
			"distributed.lock.acquisition", "acquire");

	/** The convention of {@code distributed.lock.hold}, the time a lock is held. */
	public static final DefaultLockObservationConvention HOLD = new DefaultLockObservationConvention(
			"distributed.lock.hold", "hold");

	private final String name;

	private final String verb;

	private DefaultLockObservationConvention(String name, String verb) {
		this.name = name;
		this.verb = verb;
	}

	@Override
	public String getName() {
		return this.name;
	}

	@Override
	public String getContextualName(LockObservationContext context) {
		return this.verb + " " + context.getLockName();
	}

	@Override
	public KeyValues getLowCardinalityKeyValues(LockObservationContext context) {
		KeyValues keyValues = KeyValues.of("name", context.getLockName(), "type",
				context.getLockType().name().toLowerCase(Locale.ROOT));
		LockObservationContext.Outcome outcome = context.getOutcome();
		return (outcome != null) ? keyValues.and("outcome", outcome.value()) : keyValues;
	}

	@Override
	public boolean supportsContext(Observation.Context context) {
		return context instanceof LockObservationContext;
	}

}
