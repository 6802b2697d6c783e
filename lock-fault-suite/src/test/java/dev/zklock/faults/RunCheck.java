package dev.zklock.faults;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The end of a {@link FaultRun}: once the faults cleared, a quiet period in which every
 * surviving worker must make progress, then the workers stopped, what the store recorded
 * saved to the run's directory, and the {@link HistoryChecker checker} over all of it.
 */
final class RunCheck {

	private static final Duration MAX_SILENCE = Duration.ofSeconds(6);

	private final Path directory;

	private final FencedStore store;

	private final RunWorkers workers;

	private long quietFrom;

	private RunRecord checked;

	/**
	 * Creates the check of a run.
	 * @param directory the run's directory, where the check writes what it went over
	 * @param store the fenced store, whose clock stamps every event
	 * @param workers the run's workers
	 */
	RunCheck(Path directory, FencedStore store, RunWorkers workers) {
		this.directory = directory;
		this.store = store;
		this.workers = workers;
	}

	/**
	 * Marks the moment the faults cleared: from now on every surviving thread must make
	 * progress.
	 */
	void faultsCleared() {
		this.quietFrom = this.store.now();
	}

	/**
	 * Lets the workers run for a quiet period after the faults cleared, stops them, and
	 * checks what they and the store recorded.
	 * @param quietPeriod how long the workers run on without faults
	 * @return the violations found, also written to {@code check.txt}
	 */
	List<Violation> quietThenCheck(Duration quietPeriod) throws Exception {
		if (this.quietFrom == 0) {
			faultsCleared();
		}
		Thread.sleep(quietPeriod.toMillis());
		long endedAt = this.store.now();
		this.workers.stopSurvivors();
		this.store.saveLog(this.directory.resolve("store.log"));
		this.store.saveHistories(this.directory);
		RunRecord record = new RunRecord(this.workers.histories(), this.store.log(), this.store.values(),
				this.quietFrom, endedAt, this.workers.survivors());
		this.checked = record;
		List<Violation> violations = new HistoryChecker(MAX_SILENCE).check(record);
		Files.write(this.directory.resolve("check.txt"), summary(record, violations), StandardCharsets.UTF_8);
		return violations;
	}

	/**
	 * What the last {@link #quietThenCheck(Duration) check} went over.
	 * @return the record checked
	 */
	RunRecord checked() {
		return Objects.requireNonNull(this.checked, "Not checked yet");
	}

	private static List<String> summary(RunRecord record, List<Violation> violations) {
		List<String> lines = new ArrayList<>();
		lines.add("holds: " + record.holdCount() + ", writes accepted: " + record.acceptedWrites() + ", rejected: "
				+ record.refusedWrites() + ", final values: " + record.finalValues());
		lines.add("quiet from " + record.quietFrom() + " to " + record.endedAt() + ", survivors " + record.survivors());
		lines.add(violations.size() + " violations");
		violations.forEach((violation) -> lines.add(violation.toString()));
		return lines;
	}

}
