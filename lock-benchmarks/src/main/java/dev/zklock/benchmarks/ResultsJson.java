package dev.zklock.benchmarks;

import java.io.IOException;
import java.math.BigDecimal;
import java.math.RoundingMode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;

import org.jspecify.annotations.Nullable;
import tools.jackson.databind.MapperFeature;
import tools.jackson.databind.SerializationFeature;
import tools.jackson.databind.json.JsonMapper;

/**
 * Writes the rows of a run as a JSON array, one object per row with its ratios against
 * raw Curator and against zklock ({@code ours-template}), the limit of its setting and
 * its throughput against the limit's, its throughput against every limit of its setting,
 * its writes per acquisition, the acquisitions per second that the ZooKeeper servers
 * sustain at their write rate, and its further measurements, for tools that compare runs.
 * The write rate is a row of its own, scenario {@code write-rate}, whose throughput is
 * writes per second. Numbers have four decimals; one that is not finite, or not measured,
 * is {@code null}.
 */
final class ResultsJson {

	private static final JsonMapper mapper = JsonMapper.builder()
		.disable(MapperFeature.SORT_PROPERTIES_ALPHABETICALLY)
		.enable(SerializationFeature.INDENT_OUTPUT)
		.build();

	private ResultsJson() {
	}

	/**
	 * Writes the file.
	 * @param file the file to write
	 * @param rows the rows
	 * @param report the report, which knows the ratios
	 * @throws IOException if the file cannot be written
	 */
	static void write(Path file, List<ResultRow> rows, Report report) throws IOException {
		List<Row> json = rows.stream().map((row) -> Row.of(row, report)).toList();
		Files.writeString(file, mapper.writeValueAsString(json) + "\n");
	}

	private static @Nullable BigDecimal number(double value) {
		return Double.isFinite(value) ? BigDecimal.valueOf(value).setScale(4, RoundingMode.HALF_UP) : null;
	}

	private static @Nullable BigDecimal number(OptionalDouble value) {
		return value.isPresent() ? number(value.getAsDouble()) : null;
	}

	/**
	 * A row as the file has it, its properties in this order.
	 *
	 * @param servers the number of ZooKeeper servers of the run
	 * @param scenario the scenario's command-line name
	 * @param setting what the scenario ran with
	 * @param threads the locking threads in all JVMs together
	 * @param variant the variant's name
	 * @param throughput acquisitions per second (writes per second for the write rate)
	 * @param ratioToCurator the throughput against raw Curator's in the same setting
	 * @param ratioToOursTemplate the throughput against zklock's through
	 * {@code LockTemplate} in the same setting
	 * @param limit the name of the limit of the setting
	 * @param throughputToLimit the throughput against the limit's
	 * @param throughputToLimits the throughput against each limit of the setting, by name
	 * @param writesPerAcquisition the writes per acquisition, as the variant's server
	 * counts them (see {@link Report})
	 * @param writeCapacity the acquisitions per second that the ZooKeeper servers sustain
	 * at their write rate; none for a peer
	 * @param exclusion whether mutual exclusion held: {@code held}, {@code violated} or
	 * {@code not_checked}
	 * @param metrics the further measurements
	 */
	record Row(int servers, String scenario, String setting, int threads, String variant,
			@Nullable BigDecimal throughput, @Nullable BigDecimal ratioToCurator,
			@Nullable BigDecimal ratioToOursTemplate, @Nullable String limit, @Nullable BigDecimal throughputToLimit,
			Map<String, @Nullable BigDecimal> throughputToLimits, @Nullable BigDecimal writesPerAcquisition,
			@Nullable BigDecimal writeCapacity, String exclusion, List<MetricValue> metrics) {

		static Row of(ResultRow row, Report report) {
			LimitRatios limits = report.limits();
			Map<String, @Nullable BigDecimal> toLimits = new LinkedHashMap<>();
			for (ResultRow limit : limits.limitsOf(row)) {
				toLimits.put(limit.variant(), number(row.throughput() / limit.throughput()));
			}
			return new Row(report.servers(), row.scenario().id(), row.setting(), row.threads(), row.variant(),
					number(row.throughput()), number(report.ratio(row)), number(report.ratioToOurs(row)),
					limits.limitOf(row).map(ResultRow::variant).orElse(null), number(limits.throughputToLimit(row)),
					toLimits, number(row.writesPerAcquisition()), number(report.capacityOf(row)),
					row.exclusion().name().toLowerCase(Locale.ROOT),
					row.metrics().stream().map(MetricValue::of).toList());
		}

	}

	/**
	 * A further measurement as the file has it.
	 *
	 * @param name what was measured
	 * @param value the value, in the unit
	 * @param unit the unit; empty for counts
	 */
	record MetricValue(String name, @Nullable BigDecimal value, String unit) {

		static MetricValue of(Metric metric) {
			return new MetricValue(metric.name(), number(metric.value()), metric.unit());
		}

	}

}
