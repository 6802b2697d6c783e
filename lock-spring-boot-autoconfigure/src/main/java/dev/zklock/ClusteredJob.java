package dev.zklock;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

/**
 * Runs a {@code @Scheduled} method once per scheduled time across all the instances of an
 * application, rather than once on each.
 * <p>
 * Put it beside {@code @Scheduled} (a {@code cron}, {@code fixedRate} or
 * {@code fixedDelay} schedule). At each firing an instance takes the job's lock, reads
 * the job's record in ZooKeeper and, unless another instance already ran that scheduled
 * time, claims it with one conditional write and runs the method, still under the lock,
 * so runs never overlap; the record then keeps when and where the run ended, and how.
 * <ul>
 * <li>A {@code cron} job runs at the cron expression's times, on every instance's clock:
 * whichever instance fires first runs the time, the others find it done.</li>
 * <li>A {@code fixedRate} job runs at the multiples of its period since the epoch (the
 * initial delay only delays the first time this instance takes part), so that the
 * instances share one timetable.</li>
 * <li>A {@code fixedDelay} job runs its delay after the end of the previous run, wherever
 * that run was.</li>
 * </ul>
 * A scheduled time that passes while the previous run still runs is run late, as soon as
 * that run ends; several such times are covered by that one late run. Times that passed
 * while no instance ran are caught up with one run at start-up, or not, as
 * {@link #missedRuns()} says.
 *
 * <pre class="code">
 * &#64;Scheduled(cron = "0 0 2 * * *")
 * &#64;ClusteredJob(name = "nightly-summary")
 * public void summarize() { ... }
 * </pre>
 *
 * The method holds the job's lock while it runs: {@link LockHandle#current()} gives its
 * fencing token.
 */
@Target(ElementType.METHOD)
@Retention(RetentionPolicy.RUNTIME)
@Documented
public @interface ClusteredJob {

	/**
	 * The job's name, the same in every instance and unique within the application:
	 * letters, digits, {@code .}, {@code _} and {@code -}, or a {@code ${...}}
	 * placeholder resolving to them. It names the job's record in ZooKeeper, its lock
	 * ({@code clustered-job:} followed by the name) and its metrics.
	 * @return the job name
	 */
	String name();

	/**
	 * Whether scheduled times that passed while no instance ran the job are caught up
	 * with one run when an instance starts; {@link MissedRuns#DEFAULT} takes
	 * {@code distributed-lock.scheduling.missed-runs}.
	 * @return what happens to missed runs
	 */
	MissedRuns missedRuns() default MissedRuns.DEFAULT;

}
