package dev.zklock.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;

import org.jspecify.annotations.Nullable;

/**
 * What one worker JVM measured in one run, sent back to the harness as one line.
 *
 * @param measured the acquisitions completed in the measured window
 * @param total every acquisition of the run, warm-up included: what the exclusion probe's
 * counters must add up to
 * @param nanos the length of the measured window
 * @param maxWaitNanos the longest time a thread of this JVM waited for a lock in the
 * measured window
 * @param writes the ZooKeeper writes the JVM's client sent over the whole run, warm-up
 * included, for as many acquisitions as {@code total}
 * @param heapGrowthBytes the growth of the used heap after garbage collection over the
 * run, when the workload measures it
 * @param pinnedEvents the {@code jdk.VirtualThreadPinned} events of the measured window,
 * when the threads were virtual
 * @param pinnedOutside the {@code jdk.VirtualThreadPinned} events of the warm-up and the
 * end of the run, when the threads were virtual
 * @param allocatedBytes the bytes that the locking threads allocated over the whole run,
 * warm-up included, for as many acquisitions as {@code total}, when the JVM counts them
 * (it does for platform threads)
 */
record WorkerResult(long measured, long total, long nanos, long maxWaitNanos, long writes,
		@Nullable Long heapGrowthBytes, @Nullable Long pinnedEvents, @Nullable Long pinnedOutside,
		@Nullable Long allocatedBytes) {

	double throughput() {
		return this.measured * 1e9 / this.nanos;
	}

	/**
	 * Adds the result of another round of the same JVM.
	 * @param other the other round's result
	 * @return both rounds as one
	 */
	WorkerResult plus(WorkerResult other) {
		return new WorkerResult(this.measured + other.measured, this.total + other.total, this.nanos + other.nanos,
				Math.max(this.maxWaitNanos, other.maxWaitNanos), this.writes + other.writes, null,
				sum(this.pinnedEvents, other.pinnedEvents), sum(this.pinnedOutside, other.pinnedOutside),
				sum(this.allocatedBytes, other.allocatedBytes));
	}

	private static @Nullable Long sum(@Nullable Long one, @Nullable Long other) {
		return (one != null && other != null) ? one + other : null;
	}

	/**
	 * The line that {@link #parse(String)} reads back.
	 * @return the line
	 */
	String toLine() {
		String line = "measured=" + this.measured + " total=" + this.total + " nanos=" + this.nanos + " maxWaitNanos="
				+ this.maxWaitNanos + " writes=" + this.writes;
		line += (this.heapGrowthBytes != null) ? " heapGrowthBytes=" + this.heapGrowthBytes : "";
		line += (this.pinnedEvents != null) ? " pinnedEvents=" + this.pinnedEvents : "";
		line += (this.pinnedOutside != null) ? " pinnedOutside=" + this.pinnedOutside : "";
		return line + ((this.allocatedBytes != null) ? " allocatedBytes=" + this.allocatedBytes : "");
	}

	/**
	 * Reads a result from its line.
	 * @param line the line
	 * @return the result
	 */
	static WorkerResult parse(String line) {
		Map<String, Long> values = new LinkedHashMap<>();
		for (String pair : line.trim().split(" ")) {
			int equals = pair.indexOf('=');
			values.put(pair.substring(0, equals), Long.parseLong(pair.substring(equals + 1)));
		}
		return new WorkerResult(values.get("measured"), values.get("total"), values.get("nanos"),
				values.get("maxWaitNanos"), values.get("writes"), values.get("heapGrowthBytes"),
				values.get("pinnedEvents"), values.get("pinnedOutside"), values.get("allocatedBytes"));
	}

}
