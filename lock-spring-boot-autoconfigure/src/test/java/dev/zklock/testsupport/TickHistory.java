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

	/** The runs of stopped instances, with when their lock was lost at the latest. */
	private final Map<Run, Long> lockHeldUntil;

	/** When ZooKeeper could not be reached, as pairs of wall-clock millis. */
	private final List<long[]> outages;

	private TickHistory(List<Run> runs, Map<Run, Long> lockHeldUntil, List<long[]> outages) {
		this.runs = runs.stream().sorted(Comparator.comparing(Run::scheduledTime)).toList();
		this.lockHeldUntil = lockHeldUntil;
		this.outages = outages;
	}

	/**
	 * This history, knowing that ZooKeeper could not be reached for a while: a scheduled
	 * time that passed meanwhile may be covered by the run after it.
	 * @param fromMillis when the outage began, on the machine's wall clock
	 * @param toMillis when the instances could reach ZooKeeper again, at the latest
	 * @return the history
	 */
	public TickHistory withOutage(long fromMillis, long toMillis) {
		List<long[]> outages = new ArrayList<>(this.outages);
		outages.add(new long[] { fromMillis, toMillis });
		return new TickHistory(this.runs, this.lockHeldUntil, outages);
	}

	/**
	 * A history of runs recorded in memory.
	 * @param runs the runs
	 * @return the history
	 */
	public static TickHistory of(List<Run> runs) {
		return new TickHistory(new ArrayList<>(runs), Map.of(), List.of());
	}

	/**
	 * The history that runs appended to a file: a line when each run started, and one
	 * when it ended. An instance that the test killed or paused during a run stopped
	 * acting then: for the checks, that run ended then, whether it never ended (killed)
	 * or ended after its instance resumed (paused; from then on only its fencing token
	 * keeps it apart from the runs that follow). Its lock outlived it until its session
	 * expired: the scheduled times that passed meanwhile count as passed while it ran.
	 * @param file the file
	 * @param stoppedAt when the killed or paused instances stopped, on the machine's wall
	 * clock, by instance
	 * @param lockOutlivesStop how long the lock of a stopped instance outlived it, at
	 * most
	 * @return the history
	 */
	public static TickHistory read(Path file, Map<String, Long> stoppedAt, Duration lockOutlivesStop) {
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
			String id = fields[1] + " " + fields[2] + " " + fields[4];
			long millis = Long.parseLong(fields[3]);
			Run started = runs.get(id);
			if (fields[0].equals("S")) {
				runs.put(id, new Run(Instant.parse(fields[1]), fields[2], millis, Long.MAX_VALUE,
						Long.parseLong(fields[4])));
			}
			else {
				runs.put(id, new Run(started.scheduledTime(), started.instance(), started.startMillis(), millis,
						started.fencingToken()));
			}
		}
		List<Run> cut = new ArrayList<>();
		Map<Run, Long> lockHeldUntil = new LinkedHashMap<>();
		for (Run run : runs.values()) {
			Long stopped = stoppedAt.get(run.instance());
			if (stopped != null && run.startMillis() < stopped && run.endMillis() > stopped) {
				Run stoppedRun = new Run(run.scheduledTime(), run.instance(), run.startMillis(), stopped,
						run.fencingToken());
				cut.add(stoppedRun);
				lockHeldUntil.put(stoppedRun, stopped + lockOutlivesStop.toMillis());
			}
			else {
				cut.add(run);
			}
		}
		return new TickHistory(cut, lockHeldUntil, List.of());
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
	 * The runs that started but have not ended, and whose instance did not lose its lock.
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
	 * ran, or passed while a run was in progress, its stopped instance still held the
	 * lock, or ZooKeeper could not be reached (give or take the tolerance), and so was
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
				long slack = tolerance.toMillis();
				boolean inProgress = this.runs.stream()
					.anyMatch((run) -> run.startMillis() <= at + slack
							&& this.lockHeldUntil.getOrDefault(run, run.endMillis()) >= at - slack)
						|| this.outages.stream()
							.anyMatch((outage) -> outage[0] <= at + slack && outage[1] >= at - slack);
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
