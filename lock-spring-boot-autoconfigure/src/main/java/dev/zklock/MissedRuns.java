package dev.zklock;

/**
 * What a {@link ClusteredJob} does about the scheduled times that passed while no
 * instance of the application ran it.
 */
public enum MissedRuns {

	/**
	 * What {@code distributed-lock.scheduling.missed-runs} says (on an annotation only).
	 */
	DEFAULT,

	/**
	 * One run at start-up covers all the missed times, as soon as the first instance
	 * starts.
	 */
	RUN_ONCE,

	/**
	 * Missed times are not run: the job goes on with its next scheduled time, as a
	 * {@code @Scheduled} method of a single instance does after a restart.
	 */
	SKIP

}
