package dev.zklock.scheduling;

import java.time.Duration;

import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;

/**
 * The Micrometer meters of the {@link dev.zklock.ClusteredJob}s, tagged with the job's
 * name: {@value #FIRINGS}, a timer of every firing of a job on this instance by its
 * outcome (its count is the number of firings, its time that of the run, or of finding
 * that there was nothing to run), and {@value #LATENESS}, a timer of how late each run
 * started after its scheduled time, on the clock of its instance.
 */
public class ClusteredJobMetrics {

	/**
	 * The name of the timer of the firings.
	 */
	public static final String FIRINGS = "distributed.lock.job.firings";

	/**
	 * The name of the timer of the runs' lateness.
	 */
	public static final String LATENESS = "distributed.lock.job.lateness";

	private final MeterRegistry registry;

	/**
	 * Creates the meters in a registry.
	 * @param registry the registry
	 */
	public ClusteredJobMetrics(MeterRegistry registry) {
		this.registry = registry;
	}

	void firing(String job, ClusteredJobTask.Outcome outcome, Duration duration) {
		Timer.builder(FIRINGS)
			.description("Firings of a clustered job on this instance, by outcome")
			.tag("job", job)
			.tag("outcome", outcome.value())
			.register(this.registry)
			.record(duration);
	}

	void lateness(String job, Duration lateness) {
		Timer.builder(LATENESS)
			.description("How late the runs of a clustered job started after their scheduled time")
			.tag("job", job)
			.register(this.registry)
			.record(lateness.isNegative() ? Duration.ZERO : lateness);
	}

}
