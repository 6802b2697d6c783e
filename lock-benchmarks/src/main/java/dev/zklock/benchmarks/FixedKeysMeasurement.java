package dev.zklock.benchmarks;

import java.util.ArrayList;
import java.util.List;

import dev.zklock.benchmarks.ResultRow.Exclusion;

/**
 * What the rounds of one variant in one fixed-keys setting measured, round by round added
 * up: each JVM's result and what the exclusion probes found.
 *
 * @param perJvm each worker JVM's result, all rounds together
 * @param overlaps the times a holder found another inside
 * @param shortfall the acquisitions that the probes' counters missed
 */
record FixedKeysMeasurement(List<WorkerResult> perJvm, long overlaps, long shortfall) {

	/**
	 * A JVM's share of the acquisitions, among the metrics of several JVMs.
	 */
	static final String SHARE = "share";

	/**
	 * A JVM's throughput, among the metrics of several JVMs.
	 */
	static final String THROUGHPUT = "throughput";

	/**
	 * The bytes the locking threads allocated per acquisition, warm-up included.
	 */
	static final String ALLOCATED = "allocated";

	/**
	 * The virtual threads' pinned events in the measured window, among the metrics of
	 * virtual threads.
	 */
	static final String PINNED = "pinned events";

	/**
	 * The virtual threads' pinned events in the warm-up and the end of the run.
	 */
	static final String PINNED_OUTSIDE = "pinned events in warm-up and end";

	FixedKeysMeasurement {
		perJvm = List.copyOf(perJvm);
	}

	/**
	 * Adds another round.
	 * @param round the other round
	 * @return both as one
	 */
	FixedKeysMeasurement plus(FixedKeysMeasurement round) {
		List<WorkerResult> sums = new ArrayList<>();
		for (int i = 0; i < this.perJvm.size(); i++) {
			sums.add(this.perJvm.get(i).plus(round.perJvm.get(i)));
		}
		return new FixedKeysMeasurement(sums, this.overlaps + round.overlaps, this.shortfall + round.shortfall);
	}

	/**
	 * The row of the measurement: throughput of all JVMs together, each JVM's share when
	 * there are several, each JVM's longest wait, the pinned events of virtual threads,
	 * and what broke exclusion, if anything.
	 * @param scenario the scenario
	 * @param setting the setting
	 * @param threads the threads of all JVMs together
	 * @param variant the variant's name
	 * @return the row
	 */
	ResultRow toRow(Scenario scenario, String setting, int threads, String variant) {
		List<Metric> metrics = new ArrayList<>();
		long measured = this.perJvm.stream().mapToLong(WorkerResult::measured).sum();
		boolean several = this.perJvm.size() > 1;
		for (int i = 0; i < this.perJvm.size(); i++) {
			WorkerResult jvm = this.perJvm.get(i);
			if (several) {
				metrics.add(new Metric(ofJvm(i + 1, SHARE), 100.0 * jvm.measured() / measured, "%"));
				metrics.add(new Metric(ofJvm(i + 1, THROUGHPUT), jvm.throughput(), "/s"));
			}
			metrics.add(new Metric(several ? ofJvm(i + 1, "max wait") : "max wait", jvm.maxWaitNanos() / 1e6, "ms"));
		}
		if (this.perJvm.stream().allMatch((jvm) -> jvm.pinnedEvents() != null && jvm.pinnedOutside() != null)) {
			metrics.add(new Metric(PINNED, this.perJvm.stream().mapToLong(WorkerResult::pinnedEvents).sum(), ""));
			metrics
				.add(new Metric(PINNED_OUTSIDE, this.perJvm.stream().mapToLong(WorkerResult::pinnedOutside).sum(), ""));
		}
		if (this.perJvm.stream().allMatch((jvm) -> jvm.allocatedBytes() != null)) {
			metrics
				.add(new Metric(ALLOCATED, (double) this.perJvm.stream().mapToLong(WorkerResult::allocatedBytes).sum()
						/ this.perJvm.stream().mapToLong(WorkerResult::total).sum(), "bytes/acquisition"));
		}
		boolean held = this.overlaps == 0 && this.shortfall == 0;
		if (!held) {
			metrics.add(new Metric("overlaps", this.overlaps, ""));
			metrics.add(new Metric("counter shortfall", this.shortfall, ""));
		}
		double throughput = this.perJvm.stream().mapToDouble(WorkerResult::throughput).sum();
		double writes = (double) this.perJvm.stream().mapToLong(WorkerResult::writes).sum()
				/ this.perJvm.stream().mapToLong(WorkerResult::total).sum();
		return new ResultRow(scenario, setting, threads, variant, throughput, writes,
				held ? Exclusion.HELD : Exclusion.VIOLATED, metrics);
	}

	/**
	 * The name of one JVM's measurement among the metrics of several JVMs.
	 * @param jvm the JVM's number, from 1
	 * @param name the measurement, such as {@link #SHARE}
	 * @return the metric's name, such as {@code JVM 2 share}
	 */
	static String ofJvm(int jvm, String name) {
		return "JVM " + jvm + " " + name;
	}

}
