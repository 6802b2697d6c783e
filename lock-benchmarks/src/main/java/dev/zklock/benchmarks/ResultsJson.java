package dev.zklock.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * Writes the rows of a run as a JSON array, one object per row with its ratio against raw
 * Curator, the limit of its setting and its throughput against the limit's, its
 * throughput against every limit of its setting, its ZooKeeper writes per acquisition,
 * the acquisitions per second that the servers sustain at their write rate, and its
 * further measurements, for tools that compare runs. The write rate is a row of its own,
 * scenario {@code write-rate}, whose throughput is writes per second.
 */
final class ResultsJson {

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
		String json = rows.stream()
			.map((row) -> toJson(row, report))
			.collect(Collectors.joining(",\n  ", "[\n  ", "\n]\n"));
		Files.writeString(file, json);
	}

	private static String toJson(ResultRow row, Report report) {
		String metrics = row.metrics()
			.stream()
			.map((metric) -> "{\"name\": " + string(metric.name()) + ", \"value\": " + number(metric.value())
					+ ", \"unit\": " + string(metric.unit()) + "}")
			.collect(Collectors.joining(", ", "[", "]"));
		return "{\"servers\": " + report.servers() + ", \"scenario\": " + string(row.scenario().id())
				+ ", \"setting\": " + string(row.setting()) + ", \"threads\": " + row.threads() + ", \"variant\": "
				+ string(row.variant()) + ", \"throughput\": " + number(row.throughput()) + ", \"ratioToCurator\": "
				+ optional(report.ratio(row)) + ", \"limit\": "
				+ report.limits().limitOf(row).map((limit) -> string(limit.variant())).orElse("null")
				+ ", \"throughputToLimit\": " + optional(report.limits().throughputToLimit(row))
				+ ", \"throughputToLimits\": " + throughputToLimits(row, report) + ", \"writesPerAcquisition\": "
				+ number(row.writesPerAcquisition()) + ", \"writeCapacity\": " + optional(report.capacity().of(row))
				+ ", \"exclusion\": " + string(row.exclusion().name().toLowerCase(Locale.ROOT)) + ", \"metrics\": "
				+ metrics + "}";
	}

	private static String throughputToLimits(ResultRow row, Report report) {
		return report.limits()
			.limitsOf(row)
			.stream()
			.map((limit) -> string(limit.variant()) + ": " + number(row.throughput() / limit.throughput()))
			.collect(Collectors.joining(", ", "{", "}"));
	}

	private static String optional(OptionalDouble value) {
		return value.isPresent() ? number(value.getAsDouble()) : "null";
	}

	private static String number(double value) {
		return Double.isFinite(value) ? String.format(Locale.ROOT, "%.4f", value) : "null";
	}

	private static String string(String value) {
		StringBuilder json = new StringBuilder("\"");
		for (char c : value.toCharArray()) {
			switch (c) {
				case '"' -> json.append("\\\"");
				case '\\' -> json.append("\\\\");
				default -> {
					if (c < 0x20) {
						json.append(String.format(Locale.ROOT, "\\u%04x", (int) c));
					}
					else {
						json.append(c);
					}
				}
			}
		}
		return json.append('"').toString();
	}

}
