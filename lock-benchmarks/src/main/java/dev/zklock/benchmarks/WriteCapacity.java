package dev.zklock.benchmarks;

import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalDouble;

/**
 * What the servers of a run sustain if ZooKeeper writes are the bottleneck: for every
 * variant in every setting, the write rate measured in the same run divided by the
 * variant's writes per acquisition. It bounds from above: it leaves out everything else
 * that an acquisition costs.
 */
final class WriteCapacity {

	private final Optional<ResultRow> writeRate;

	/**
	 * Finds the write rate of a run.
	 * @param rows the measured rows; the first write-rate row is the rate
	 */
	WriteCapacity(List<ResultRow> rows) {
		this.writeRate = rows.stream().filter((row) -> row.scenario() == Scenario.WRITE_RATE).findFirst();
	}

	/**
	 * Whether the run measured the write rate.
	 * @return whether there is a capacity to give
	 */
	boolean isMeasured() {
		return this.writeRate.isPresent();
	}

	/**
	 * The acquisitions per second that the servers sustain, if writes are the bottleneck,
	 * in a row's variant and setting.
	 * @param row a row
	 * @return the acquisitions per second, or empty when the write rate was not measured,
	 * the row measures the servers, or its variant wrote nothing
	 */
	OptionalDouble of(ResultRow row) {
		if (this.writeRate.isEmpty() || row.scenario().measuresServers() || !(row.writesPerAcquisition() > 0)) {
			return OptionalDouble.empty();
		}
		return OptionalDouble.of(this.writeRate.get().throughput() / row.writesPerAcquisition());
	}

	/**
	 * The capacity of a row as a cell: {@code 20,617/s}, or {@code – (no writes)} for a
	 * variant that wrote nothing.
	 * @param row a row
	 * @return the text
	 */
	String cell(ResultRow row) {
		OptionalDouble capacity = of(row);
		if (capacity.isPresent()) {
			return String.format(Locale.ROOT, "%,.0f/s", capacity.getAsDouble());
		}
		return (row.writesPerAcquisition() == 0) ? "– (no writes)" : "–";
	}

	/**
	 * The sentence that introduces the capacity table, or says how to get one.
	 * @param servers the number of ZooKeeper servers of the run
	 * @return the Markdown text
	 */
	String introduction(int servers) {
		if (this.writeRate.isEmpty()) {
			return "No write rate measured: add write-rate to --scenario and set-data to --library for the "
					+ "capacity of the servers.\n";
		}
		ResultRow rate = this.writeRate.get();
		return String.format(Locale.ROOT,
				"Capacity if ZooKeeper writes are the bottleneck, on %s: the acquisitions per second that these "
						+ "servers sustain, their write rate measured in the same run (%,.0f writes/s, %s) ÷ each "
						+ "variant's writes per acquisition. It leaves out everything else that an acquisition "
						+ "costs: a bound from above.\n",
				BenchmarkServers.summary(servers), rate.throughput(), rate.setting());
	}

}
