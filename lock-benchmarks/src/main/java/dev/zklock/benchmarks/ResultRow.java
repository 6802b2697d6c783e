package dev.zklock.benchmarks;

import java.util.List;
import java.util.OptionalDouble;

/**
 * One measured line of the comparison: a variant in a scenario's setting.
 *
 * @param scenario the scenario
 * @param setting what the scenario ran with, such as {@code 4 threads}
 * @param threads the locking threads in all JVMs together
 * @param variant the variant's name
 * @param throughput acquisitions per second, all JVMs together
 * @param writesPerAcquisition the writes the variant's clients sent to its server per
 * acquisition, warm-up included (see {@link LockDriver#writes()})
 * @param exclusion whether mutual exclusion held, as far as the scenario checks it
 * @param metrics further measurements
 */
record ResultRow(Scenario scenario, String setting, int threads, String variant, double throughput,
		double writesPerAcquisition, Exclusion exclusion, List<Metric> metrics) {

	ResultRow {
		metrics = List.copyOf(metrics);
	}

	/**
	 * The value of a further measurement.
	 * @param name the measurement's name
	 * @return its value, or empty when the row has none of that name
	 */
	OptionalDouble metric(String name) {
		return this.metrics.stream()
			.filter((metric) -> metric.name().equals(name))
			.mapToDouble(Metric::value)
			.findFirst();
	}

	/**
	 * What the exclusion probe found.
	 */
	enum Exclusion {

		/**
		 * No two holders overlapped and no counter update was lost.
		 */
		HELD,

		/**
		 * Two holders overlapped, or the counters fell short of the acquisitions.
		 */
		VIOLATED,

		/**
		 * The scenario does not check exclusion: every key is locked once.
		 */
		NOT_CHECKED

	}

}
