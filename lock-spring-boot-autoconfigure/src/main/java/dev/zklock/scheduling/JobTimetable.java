package dev.zklock.scheduling;

import java.time.Duration;
import java.time.Instant;
import java.util.function.UnaryOperator;

import org.jspecify.annotations.Nullable;

import org.springframework.scheduling.Trigger;
import org.springframework.scheduling.support.SimpleTriggerContext;

/**
 * When a {@link dev.zklock.ClusteredJob} runs, the same for every instance: which time an
 * instance fires at first and next, and which scheduled time a firing runs.
 * <p>
 * A {@link #grid grid} (a cron expression, or the multiples of a fixed rate's period
 * since the epoch) has times that do not depend on when runs happened: a firing runs the
 * latest time of the grid that has passed, so that the times that passed while the
 * previous run still ran are covered by one late run. A {@link #fixedDelay fixed delay}
 * runs its delay after the recorded end of the previous run, wherever that ran.
 */
sealed interface JobTimetable {

	/**
	 * Whether the next firing time depends on the last run, wherever it ran, so that
	 * {@link #next} needs the job's record.
	 * @return whether the timetable counts from the last run
	 */
	boolean countsFromLastRun();

	/**
	 * The time at which an instance fires first.
	 * @param now the scheduler's time
	 * @param last the job's record, or {@code null} if it never ran
	 * @param catchUp whether times missed since the record's run are run once now
	 * @return the first firing time, or {@code null} if the job never runs
	 */
	@Nullable Instant first(Instant now, @Nullable JobRecord last, boolean catchUp);

	/**
	 * The time at which an instance fires next.
	 * @param tick the scheduled time of the last firing, as {@link #due} moved it
	 * @param last the job's record, or {@code null} if unknown
	 * @param now the scheduler's time
	 * @return the next firing time, or {@code null} if the job never runs again
	 */
	@Nullable Instant next(Instant tick, @Nullable JobRecord last, Instant now);

	/**
	 * The scheduled time that a firing runs, holding the job's lock.
	 * @param tick the time it fired for
	 * @param last the job's record, or {@code null} if it never ran
	 * @param now the scheduler's time
	 * @return the scheduled time, or {@code null} if none is due yet
	 */
	@Nullable Instant due(Instant tick, @Nullable JobRecord last, Instant now);

	/**
	 * Until when a firing waits for the job's lock, at the latest: its next time.
	 * @param tick the time it fired for
	 * @param now the scheduler's time
	 * @return the deadline
	 */
	Instant waitDeadline(Instant tick, Instant now);

	/**
	 * The times of a trigger that computes its next time from the last one alone, such as
	 * a {@code CronTrigger}.
	 * @param trigger the trigger
	 * @return the grid
	 */
	static JobTimetable grid(Trigger trigger) {
		return new Grid((time) -> trigger.nextExecution(new SimpleTriggerContext(time, time, time)), Duration.ZERO);
	}

	/**
	 * The multiples of a period since the epoch.
	 * @param period the period, at least a nanosecond
	 * @param initialDelay how long after start-up this instance fires first, at the
	 * earliest
	 * @return the grid
	 */
	static JobTimetable fixedRate(Duration period, Duration initialDelay) {
		long nanos = period.toNanos();
		return new Grid((time) -> {
			long since = Math.multiplyExact(time.getEpochSecond(), 1_000_000_000L) + time.getNano();
			long next = Math.multiplyExact(Math.floorDiv(since, nanos) + 1, nanos);
			return Instant.ofEpochSecond(Math.floorDiv(next, 1_000_000_000L), Math.floorMod(next, 1_000_000_000L));
		}, initialDelay);
	}

	/**
	 * A delay after the end of each run.
	 * @param delay the delay
	 * @param initialDelay how long after start-up this instance fires first
	 * @return the timetable
	 */
	static JobTimetable fixedDelay(Duration delay, Duration initialDelay) {
		return new FixedDelay(delay, initialDelay);
	}

	/**
	 * Times given by a function from each time to the next one.
	 *
	 * @param after the first time strictly after a time, or {@code null} for none
	 * @param initialDelay the least time from start-up to the first firing
	 */
	record Grid(UnaryOperator<@Nullable Instant> after, Duration initialDelay) implements JobTimetable {

		/**
		 * How far back from now {@link #latest} looks first for a time of the grid,
		 * growing by {@link #WIDER} until it finds one, so that a grid of seconds missed
		 * for a month is not walked second by second.
		 */
		private static final Duration FIRST_LOOK_BACK = Duration.ofMinutes(1);

		private static final int WIDER = 32;

		@Override
		public boolean countsFromLastRun() {
			return false;
		}

		@Override
		public @Nullable Instant first(Instant now, @Nullable JobRecord last, boolean catchUp) {
			Instant first = this.after.apply(now.plus(this.initialDelay).minusNanos(1));
			if (catchUp && last != null) {
				Instant missed = this.after.apply(last.scheduledTime());
				if (missed != null && (first == null || missed.isBefore(first))) {
					return missed;
				}
			}
			return first;
		}

		@Override
		public @Nullable Instant next(Instant tick, @Nullable JobRecord last, Instant now) {
			return this.after.apply(tick);
		}

		@Override
		public Instant due(Instant tick, @Nullable JobRecord last, Instant now) {
			return latest(tick, now);
		}

		@Override
		public Instant waitDeadline(Instant tick, Instant now) {
			Instant next = this.after.apply(tick);
			return (next != null) ? next : now;
		}

		/**
		 * The latest time of the grid that is not after now, and not before the tick.
		 */
		private Instant latest(Instant tick, Instant now) {
			Instant from = tick;
			for (Duration back = FIRST_LOOK_BACK; now.minus(back).isAfter(from); back = back.multipliedBy(WIDER)) {
				Instant candidate = this.after.apply(now.minus(back));
				if (candidate != null && !candidate.isAfter(now)) {
					from = candidate;
					break;
				}
			}
			for (Instant next = this.after.apply(from); next != null
					&& !next.isAfter(now); next = this.after.apply(from)) {
				from = next;
			}
			return from;
		}

	}

	/**
	 * A delay after the end of each run, wherever it ran.
	 *
	 * @param delay the delay
	 * @param initialDelay how long after start-up this instance fires first
	 */
	record FixedDelay(Duration delay, Duration initialDelay) implements JobTimetable {

		@Override
		public boolean countsFromLastRun() {
			return true;
		}

		@Override
		public Instant first(Instant now, @Nullable JobRecord last, boolean catchUp) {
			Instant first = now.plus(this.initialDelay);
			if (catchUp && last != null) {
				Instant missed = last.endOrStart().plus(this.delay);
				return missed.isBefore(first) ? missed : first;
			}
			return first;
		}

		@Override
		public Instant next(Instant tick, @Nullable JobRecord last, Instant now) {
			if (last != null && last.status() != JobRecord.Status.RUNNING) {
				return last.endOrStart().plus(this.delay);
			}
			return now.plus(this.delay);
		}

		@Override
		public @Nullable Instant due(Instant tick, @Nullable JobRecord last, Instant now) {
			if (last == null) {
				return tick;
			}
			Instant due = last.endOrStart().plus(this.delay);
			if (due.isAfter(now)) {
				return null;
			}
			// not before the firing's own time: after a restart that skips missed runs,
			// the first run is on time, not late by the whole outage
			return due.isBefore(tick) ? tick : due;
		}

		@Override
		public Instant waitDeadline(Instant tick, Instant now) {
			return now.plus(this.delay);
		}

	}

}
