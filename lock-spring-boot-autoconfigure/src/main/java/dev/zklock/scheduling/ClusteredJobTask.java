package dev.zklock.scheduling;

import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockHandle;
import dev.zklock.LockLostException;
import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.LockTimeoutException;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.scheduling.SchedulingAwareRunnable;
import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.TriggerContext;

/**
 * One {@link dev.zklock.ClusteredJob} on this instance: both the trigger that the
 * scheduler asks for the next firing time and the task it runs then, so that each firing
 * knows the scheduled time it is for. The scheduler runs one firing at a time and asks
 * for the next time after it, so the fields that carry the firing's time need no more
 * than visibility between its threads.
 * <p>
 * A firing takes the job's lock (waiting at most until the job's next time, and no longer
 * than the lock wait), reads the record, asks the {@link JobTimetable} which scheduled
 * time is due, and runs it unless the record shows that time or a later one run: it
 * claims the time with one write conditional on the version it read (a claim that loses
 * to another writer reads again), runs the method, and writes the run's end conditionally
 * on its claim's version. The lock keeps runs from overlapping; the conditional claim
 * keeps a time from running twice, even for an instance that lost its lock (a pause
 * longer than its session) and did not notice yet.
 */
final class ClusteredJobTask implements SchedulingAwareRunnable, Trigger {

	private static final Logger logger = LoggerFactory.getLogger(ClusteredJobTask.class);

	/** How soon a firing that could not reach ZooKeeper tries again. */
	private static final Duration RETRY_DELAY = Duration.ofMillis(200);

	private final String job;

	private final Runnable method;

	private final JobTimetable timetable;

	private final boolean catchUp;

	private final LockTemplate lockTemplate;

	private final JobRecords records;

	/** Who runs the job here, as the record names it. */
	private final String instance;

	/** The longest a firing waits for the job's lock. */
	private final Duration lockWait;

	private final @Nullable ClusteredJobMetrics metrics;

	/**
	 * The scheduled time of the current or last firing; {@code null} before the first.
	 */
	private volatile @Nullable Instant tick;

	/** The scheduler's clock, from the trigger context. */
	private volatile Clock clock = Clock.systemUTC();

	/**
	 * Whether the last firing could not reach ZooKeeper, so that the next one tries its
	 * time again soon rather than at the next scheduled time.
	 */
	private volatile boolean retry;

	ClusteredJobTask(String job, Runnable method, JobTimetable timetable, boolean catchUp, LockTemplate lockTemplate,
			JobRecords records, String instance, Duration lockWait, @Nullable ClusteredJobMetrics metrics) {
		this.job = job;
		this.method = method;
		this.timetable = timetable;
		this.catchUp = catchUp;
		this.lockTemplate = lockTemplate;
		this.records = records;
		this.instance = instance;
		this.lockWait = lockWait;
		this.metrics = metrics;
	}

	@Override
	public @Nullable Instant nextExecution(TriggerContext triggerContext) {
		this.clock = triggerContext.getClock();
		Instant now = this.clock.instant();
		Instant tick = this.tick;
		if (tick != null && this.retry) {
			this.retry = false;
			Instant soon = now.plus(RETRY_DELAY);
			Instant next = this.timetable.next(tick, null, now);
			return (next == null || soon.isBefore(next)) ? soon : next;
		}
		// ZooKeeper is read on the scheduler's thread only when the answer depends on it
		boolean needsRecord = (tick != null) ? this.timetable.countsFromLastRun() : this.catchUp;
		JobRecord last = needsRecord ? readQuietly() : null;
		Instant next = (tick != null) ? this.timetable.next(tick, last, now)
				: this.timetable.first(now, last, this.catchUp);
		this.tick = next;
		return next;
	}

	@Override
	public void run() {
		Instant tick = this.tick;
		if (tick == null) {
			return;
		}
		Clock clock = this.clock;
		long began = System.nanoTime();
		Instant now = clock.instant();
		Duration wait = Duration.between(now, this.timetable.waitDeadline(tick, now));
		wait = wait.isNegative() ? Duration.ZERO : (wait.compareTo(this.lockWait) > 0) ? this.lockWait : wait;
		AtomicReference<Outcome> outcome = new AtomicReference<>(Outcome.UNAVAILABLE);
		try {
			String key = lockKey(this.job);
			this.lockTemplate.execute(LockRequest.exclusive(key).withWaitTime(wait).withName(key), (lock) -> {
				fire(tick, lock, clock, outcome);
				return null;
			});
		}
		catch (MethodFailure ex) {
			throw ex.rethrown();
		}
		catch (LockTimeoutException ex) {
			outcome.set(Outcome.BUSY);
			logger.debug("Job '{}' did not run for {}: another run held its lock", this.job, tick);
		}
		catch (LockLostException ex) {
			logger.warn("Job '{}' lost its lock while it ran: {}", this.job, ex.getMessage());
		}
		catch (LockAcquisitionException | JobRecordsException ex) {
			this.retry = true;
			logger.warn("Job '{}' did not run for {} yet: {}", this.job, tick, ex.getMessage());
		}
		finally {
			if (this.metrics != null) {
				this.metrics.firing(this.job, outcome.get(), Duration.ofNanos(System.nanoTime() - began));
			}
		}
	}

	private void fire(Instant tick, LockHandle lock, Clock clock, AtomicReference<Outcome> outcome) {
		while (true) {
			JobRecords.Versioned current = this.records.readVersioned(this.job);
			JobRecord last = (current != null) ? current.record() : null;
			Instant now = clock.instant();
			Instant due = this.timetable.due(tick, last, now);
			if (due == null) {
				outcome.set(Outcome.NOT_DUE);
				return;
			}
			if (due.isAfter(tick)) {
				this.tick = due;
			}
			if (last != null && !last.scheduledTime().isBefore(due)) {
				// fire next after the time run, not time after time up to it
				this.tick = last.scheduledTime().isAfter(due) ? last.scheduledTime() : due;
				outcome.set(Outcome.ALREADY_RAN);
				return;
			}
			JobRecord claim = JobRecord.claimed(this.job, due, this.instance, now, lock.fencingToken());
			int version = this.records.claim(claim, current);
			if (version >= 0) {
				if (this.metrics != null) {
					this.metrics.lateness(this.job, Duration.between(due, now));
				}
				run(claim, version, clock, outcome);
				return;
			}
			// another writer came between the read and the claim: only an instance that
			// lost this lock can, and it writes at most twice per run, so this ends
		}
	}

	private void run(JobRecord claim, int version, Clock clock, AtomicReference<Outcome> outcome) {
		try {
			this.method.run();
		}
		catch (Throwable ex) {
			outcome.set(Outcome.FAILED);
			end(claim.ended(clock.instant(), JobRecord.Status.FAILED), version);
			throw new MethodFailure(ex);
		}
		outcome.set(Outcome.RAN);
		end(claim.ended(clock.instant(), JobRecord.Status.SUCCEEDED), version);
	}

	private void end(JobRecord ended, int version) {
		try {
			if (!this.records.end(ended, version)) {
				logger.warn(
						"Job '{}' ran {} but another instance claimed a run since: its lock was lost during the run",
						this.job, ended.scheduledTime());
			}
		}
		catch (JobRecordsException ex) {
			logger.warn("Job '{}' ran {} but its end was not recorded: {}", this.job, ended.scheduledTime(),
					ex.getMessage());
		}
	}

	private @Nullable JobRecord readQuietly() {
		try {
			return this.records.read(this.job);
		}
		catch (JobRecordsException ex) {
			logger.debug("Job '{}' is scheduled without its record: {}", this.job, ex.getMessage());
			return null;
		}
	}

	static String lockKey(String job) {
		return "clustered-job:" + job;
	}

	@Override
	public @Nullable String getQualifier() {
		return (this.method instanceof SchedulingAwareRunnable aware) ? aware.getQualifier() : null;
	}

	@Override
	public String toString() {
		return this.method.toString();
	}

	/**
	 * The failure of the job's method, carried through the lock template to be thrown
	 * again as it was, so that the scheduler's error handler sees it.
	 */
	private static final class MethodFailure extends RuntimeException {

		MethodFailure(Throwable cause) {
			super(cause);
		}

		RuntimeException rethrown() {
			Throwable cause = getCause();
			if (cause instanceof Error error) {
				throw error;
			}
			RuntimeException rethrown = (cause instanceof RuntimeException runtime) ? runtime
					: new IllegalStateException(cause);
			for (Throwable suppressed : getSuppressed()) {
				rethrown.addSuppressed(suppressed);
			}
			return rethrown;
		}

	}

	/**
	 * What a firing did, as the {@code outcome} tag of the firings' timer says.
	 */
	enum Outcome {

		/** It ran the method, which returned. */
		RAN("ran"),

		/** It ran the method, which threw. */
		FAILED("failed"),

		/**
		 * The record showed the due scheduled time run already, by this or another
		 * instance.
		 */
		ALREADY_RAN("already-ran"),

		/**
		 * No scheduled time was due yet (a fixed delay counted from a run that ended
		 * later).
		 */
		NOT_DUE("not-due"),

		/** The job's lock stayed held by another run until the wait ended. */
		BUSY("busy"),

		/** ZooKeeper could not be reached for the lock or the record. */
		UNAVAILABLE("unavailable");

		private final String value;

		Outcome(String value) {
			this.value = value;
		}

		String value() {
			return this.value;
		}

	}

}
