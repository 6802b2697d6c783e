package dev.zklock.testsupport;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;
import java.util.stream.Collectors;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The runs of a clustered job, as the runs themselves recorded them (in a list, or
 * appended to a file shared by several JVMs, a line at the start and at the end of each
 * run), and the checks of what the job promises: no scheduled time ran twice, no two runs
 * overlapped, and every scheduled time of the grid ran, or passed while a run was in
 * progress and was covered by the late run after it. Times are the wall clock of the
 * machine, which all the JVMs of a test share (the skew of a test is what their
 * schedulers see, not this clock).
 */
public final class TickHistory {

	private final List<Run> runs;

	private TickHistory(List<Run> runs) {
		this.runs = runs.stream().sorted(Comparator.comparing(Run::scheduledTime)).toList();
	}

	/**
	 * A history of runs recorded in memory.
	 * @param runs the runs
	 * @return the history
	 */
	public static TickHistory of(List<Run> runs) {
		return new TickHistory(new ArrayList<>(runs));
	}

	/**
	 * The history that runs appended to a file: a line when each run started, and one
	 * when it ended. A run that never ended (its JVM was killed) ends, for the checks,
	 * when the test says its instance died.
	 * @param file the file
	 * @param deaths when the killed instances died, on the machine's wall clock, plus how
	 * long their lock outlived them (their session timeout), by instance
	 * @return the history
	 */
	public static TickHistory read(Path file, Map<String, Long> deaths) {
		List<String> lines;
		try {
			lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
		Map<String, Run> runs = new LinkedHashMap<>();
		for (String line : lines) {
			String[] fields = line.split(" ");
			Run run = new Run(Instant.parse(fields[1]), fields[2], Long.parseLong(fields[3]), Long.MAX_VALUE,
					Long.parseLong(fields[4]));
			String id = fields[1] + " " + fields[2] + " " + fields[4];
			if (fields[0].equals("S")) {
				runs.put(id, new Run(run.scheduledTime(), run.instance(), run.startMillis(),
						deaths.getOrDefault(run.instance(), Long.MAX_VALUE), run.fencingToken()));
			}
			else {
				Run started = runs.get(id);
				runs.put(id, new Run(started.scheduledTime(), started.instance(), started.startMillis(),
						run.startMillis(), started.fencingToken()));
			}
		}
		return new TickHistory(new ArrayList<>(runs.values()));
	}

	/**
	 * Appends the start of a run to a file, in one write of one line, so that the lines
	 * of several JVMs do not mix.
	 * @param file the file
	 * @param scheduledTime the scheduled time it runs
	 * @param instance the instance that runs it
	 * @param fencingToken the fencing token of its lock
	 */
	public static void started(Path file, Instant scheduledTime, String instance, long fencingToken) {
		append(file, "S", scheduledTime, instance, fencingToken);
	}

	/**
	 * Appends the end of a run to a file.
	 * @param file the file
	 * @param scheduledTime the scheduled time it ran
	 * @param instance the instance that ran it
	 * @param fencingToken the fencing token of its lock
	 */
	public static void ended(Path file, Instant scheduledTime, String instance, long fencingToken) {
		append(file, "E", scheduledTime, instance, fencingToken);
	}

	private static void append(Path file, String event, Instant scheduledTime, String instance, long fencingToken) {
		String line = event + " " + scheduledTime + " " + instance + " " + System.currentTimeMillis() + " "
				+ fencingToken + "\n";
		try (FileChannel channel = FileChannel.open(file, StandardOpenOption.CREATE, StandardOpenOption.WRITE,
				StandardOpenOption.APPEND)) {
			channel.write(ByteBuffer.wrap(line.getBytes(StandardCharsets.UTF_8)));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	/**
	 * The runs that started but have not ended, and whose instance did not die.
	 * @return the runs in progress
	 */
	public List<Run> inProgress() {
		return this.runs.stream().filter((run) -> run.endMillis() == Long.MAX_VALUE).toList();
	}

	public List<Run> runs() {
		return this.runs;
	}

	public int size() {
		return this.runs.size();
	}

	/**
	 * How many runs each instance made.
	 * @return the count of runs by instance
	 */
	public Map<String, Long> runsByInstance() {
		return this.runs.stream().collect(Collectors.groupingBy(Run::instance, Collectors.counting()));
	}

	/**
	 * Checks that no scheduled time ran twice.
	 * @return this history
	 */
	public TickHistory eachScheduledTimeRanOnce() {
		Map<Instant, List<Run>> byTime = this.runs.stream().collect(Collectors.groupingBy(Run::scheduledTime));
		assertThat(byTime.values()).as("runs of one scheduled time").allSatisfy((runs) -> assertThat(runs).hasSize(1));
		return this;
	}

	/**
	 * Checks that no two runs were in progress at once.
	 * @return this history
	 */
	public TickHistory noRunsOverlapped() {
		List<Run> byStart = this.runs.stream().sorted(Comparator.comparingLong(Run::startMillis)).toList();
		for (int i = 1; i < byStart.size(); i++) {
			assertThat(byStart.get(i).startMillis())
				.as("start of %s after the end of %s", byStart.get(i), byStart.get(i - 1))
				.isGreaterThanOrEqualTo(byStart.get(i - 1).endMillis());
		}
		return this;
	}

	/**
	 * Checks that the later a scheduled time, the greater the fencing token of its run's
	 * lock.
	 * @return this history
	 */
	public TickHistory fencingTokensIncrease() {
		for (int i = 1; i < this.runs.size(); i++) {
			assertThat(this.runs.get(i).fencingToken()).as("token of %s", this.runs.get(i))
				.isGreaterThan(this.runs.get(i - 1).fencingToken());
		}
		return this;
	}

	/**
	 * Checks that every scheduled time of the grid, between the first and the last run,
	 * ran, or passed while a run was in progress (give or take the tolerance) and so was
	 * covered by the next run.
	 * @param next the time of the grid after a time
	 * @param tolerance how far the clocks of the instances' schedulers are apart, at most
	 * @return the scheduled times that were covered rather than run
	 */
	public List<Instant> everyScheduledTimeRanOrWasCovered(Function<Instant, Instant> next, Duration tolerance) {
		List<Instant> covered = new ArrayList<>();
		for (int i = 1; i < this.runs.size(); i++) {
			Instant previous = this.runs.get(i - 1).scheduledTime();
			for (Instant time = next.apply(previous); time
				.isBefore(this.runs.get(i).scheduledTime()); time = next.apply(time)) {
				long at = time.toEpochMilli();
				boolean inProgress = this.runs.stream()
					.anyMatch((run) -> run.startMillis() <= at + tolerance.toMillis()
							&& run.endMillis() >= at - tolerance.toMillis());
				assertThat(inProgress)
					.as("scheduled time %s, not run, passed while a run was in progress (runs %s)", time, this.runs)
					.isTrue();
				covered.add(time);
			}
		}
		return covered;
	}

	/**
	 * One run of a job.
	 *
	 * @param scheduledTime the scheduled time it ran
	 * @param instance the instance that ran it
	 * @param startMillis when it started, on the machine's wall clock
	 * @param endMillis when it ended
	 * @param fencingToken the fencing token of its lock
	 */
	public record Run(Instant scheduledTime, String instance, long startMillis, long endMillis, long fencingToken) {

	}

}
