package dev.zklock.scheduling;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.temporal.ChronoUnit;
import java.util.TimeZone;

import org.junit.jupiter.api.Test;

import org.springframework.scheduling.support.CronTrigger;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The times of the timetables, and the record they count from, in memory.
 */
class JobTimetableTests {

	private static final Instant NOW = Instant.parse("2026-11-29T10:15:42.300Z");

	private final JobTimetable everySecond = JobTimetable
		.grid(new CronTrigger("* * * * * *", TimeZone.getTimeZone(ZoneOffset.UTC)));

	@Test
	void fixedRateTimesAreMultiplesOfThePeriodSinceTheEpoch() {
		JobTimetable grid = JobTimetable.fixedRate(Duration.ofMinutes(15), Duration.ZERO);
		assertThat(grid.first(NOW, null, false)).isEqualTo(Instant.parse("2026-11-29T10:30:00Z"));
		assertThat(grid.next(Instant.parse("2026-11-29T10:30:00Z"), null, NOW))
			.isEqualTo(Instant.parse("2026-11-29T10:45:00Z"));
		assertThat(JobTimetable.fixedRate(Duration.ofMinutes(15), Duration.ofMinutes(20)).first(NOW, null, false))
			.as("the first time after the initial delay")
			.isEqualTo(Instant.parse("2026-11-29T10:45:00Z"));
		assertThat(grid.first(Instant.parse("2026-11-29T10:30:00Z"), null, false)).as("a time now is the first")
			.isEqualTo(Instant.parse("2026-11-29T10:30:00Z"));
	}

	@Test
	void firingRunsTheLatestTimeThatPassedEvenAMonthOfSecondsLater() {
		Instant monthAgo = NOW.minus(Duration.ofDays(31)).truncatedTo(ChronoUnit.SECONDS);
		assertThat(this.everySecond.due(monthAgo, null, NOW)).isEqualTo(Instant.parse("2026-11-29T10:15:42Z"));
		assertThat(this.everySecond.due(Instant.parse("2026-11-29T10:15:42Z"), null, NOW))
			.isEqualTo(Instant.parse("2026-11-29T10:15:42Z"));
	}

	@Test
	void catchUpFiresFirstForTheTimeAfterTheLastRun() {
		JobRecord lastRun = record(Instant.parse("2026-11-29T09:00:00Z"), Instant.parse("2026-11-29T09:00:01Z"));
		JobTimetable hourly = JobTimetable.grid(new CronTrigger("0 0 * * * *", TimeZone.getTimeZone(ZoneOffset.UTC)));
		assertThat(hourly.first(NOW, lastRun, true)).isEqualTo(Instant.parse("2026-11-29T10:00:00Z"));
		assertThat(hourly.first(NOW, lastRun, false)).isEqualTo(Instant.parse("2026-11-29T11:00:00Z"));
		assertThat(hourly.first(NOW, record(Instant.parse("2026-11-29T10:00:00Z"), NOW), true)).as("nothing missed")
			.isEqualTo(Instant.parse("2026-11-29T11:00:00Z"));
	}

	@Test
	void fixedDelayCountsFromTheRecordedEnd() {
		JobTimetable delay = JobTimetable.fixedDelay(Duration.ofSeconds(10), Duration.ZERO);
		JobRecord lastRun = record(Instant.parse("2026-11-29T10:15:30Z"), Instant.parse("2026-11-29T10:15:35Z"));
		assertThat(delay.next(NOW, lastRun, NOW)).isEqualTo(Instant.parse("2026-11-29T10:15:45Z"));
		assertThat(delay.due(NOW, lastRun, NOW)).as("not due before the delay passed").isNull();
		assertThat(delay.due(NOW, lastRun, NOW.plusSeconds(5))).isEqualTo(Instant.parse("2026-11-29T10:15:45Z"));
		assertThat(delay.due(Instant.parse("2026-11-29T10:15:46Z"), lastRun, NOW.plusSeconds(5)))
			.as("not before the firing's own time, after a restart that skipped missed runs")
			.isEqualTo(Instant.parse("2026-11-29T10:15:46Z"));
	}

	@Test
	void recordReadsBackWhatItWrote() {
		JobRecord lastRun = record(Instant.parse("2026-11-29T10:15:30Z"), Instant.parse("2026-11-29T10:15:35Z"));
		assertThat(JobRecord.fromBytes("nightly", lastRun.toBytes())).isEqualTo(lastRun);
		JobRecord running = JobRecord.claimed("nightly", NOW, "orders@host/1", NOW, 7);
		assertThat(JobRecord.fromBytes("nightly", running.toBytes())).isEqualTo(running);
		assertThat(JobRecord.fromBytes("nightly", "somebody else's".getBytes(StandardCharsets.UTF_8))).isNull();
		assertThat(JobRecord.fromBytes("nightly", new byte[0])).isNull();
	}

	private static JobRecord record(Instant scheduledTime, Instant end) {
		return new JobRecord("nightly", scheduledTime, "orders@host/1", scheduledTime, end, JobRecord.Status.SUCCEEDED,
				42);
	}

}
