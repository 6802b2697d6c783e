package dev.zklock.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.stream.Collectors;

/**
 * The rows of a run as Markdown: a table of throughput and ratio against raw Curator with
 * a column per variant, one of ZooKeeper writes per acquisition in the same layout, and a
 * table of every row with its further measurements.
 */
final class Report {

	private final List<Variant> variants;

	private final Map<String, List<ResultRow>> settings = new LinkedHashMap<>();

	/**
	 * Creates a report.
	 * @param variants the variants, in column order
	 * @param rows the measured rows, in the order they ran
	 */
	Report(List<Variant> variants, List<ResultRow> rows) {
		this.variants = variants;
		for (ResultRow row : rows) {
			this.settings.computeIfAbsent(row.scenario().title() + " | " + row.setting(), (key) -> new ArrayList<>())
				.add(row);
		}
	}

	/**
	 * The throughput of the row against raw Curator's in the same setting.
	 * @param row a row of this report
	 * @return the ratio, or empty when Curator did not run
	 */
	OptionalDouble ratio(ResultRow row) {
		return this.settings.get(row.scenario().title() + " | " + row.setting())
			.stream()
			.filter((candidate) -> candidate.variant().equals(Variant.of(Library.CURATOR).name()))
			.mapToDouble((baseline) -> row.throughput() / baseline.throughput())
			.findFirst();
	}

	/**
	 * The report.
	 * @return the Markdown text
	 */
	String toMarkdown() {
		StringBuilder text = new StringBuilder();
		text.append(
				"Throughput in acquisitions per second; in brackets, the ratio against raw Curator in the same run.\n\n");
		appendByVariant(text, (row) -> throughput(row) + " (" + ratioText(row) + ")");
		text.append("\nZooKeeper writes per acquisition, counted at each variant's client, warm-up included.\n\n");
		appendByVariant(text, Report::writesText);
		text.append("\n| scenario | setting | variant | acquisitions/s | × curator | writes/acquisition | exclusion "
				+ "| measurements |\n")
			.append("|---|---|---|--:|--:|--:|---|---|\n");
		this.settings.forEach((setting,
				rows) -> rows.forEach((row) -> text.append("| ")
					.append(setting)
					.append(" | ")
					.append(row.variant())
					.append(" | ")
					.append(throughput(row))
					.append(" | ")
					.append(ratioText(row))
					.append(" | ")
					.append(writesText(row))
					.append(" | ")
					.append(exclusionText(row))
					.append(" | ")
					.append(row.metrics().stream().map(Metric::toText).collect(Collectors.joining(", ")))
					.append(" |\n")));
		return text.toString();
	}

	/**
	 * A table with a row per setting and a column per variant.
	 */
	private void appendByVariant(StringBuilder text, Function<ResultRow, String> cell) {
		text.append("| scenario | setting | ")
			.append(this.variants.stream().map(Variant::name).collect(Collectors.joining(" | ")))
			.append(" |\n|---|---|")
			.append("--:|".repeat(this.variants.size()))
			.append('\n');
		this.settings.forEach((setting, rows) -> {
			text.append("| ").append(setting).append(" |");
			for (Variant variant : this.variants) {
				text.append(' ')
					.append(rows.stream()
						.filter((row) -> row.variant().equals(variant.name()))
						.findFirst()
						.map(cell)
						.orElse("–"))
					.append(" |");
			}
			text.append('\n');
		});
	}

	private static String writesText(ResultRow row) {
		return Double.isFinite(row.writesPerAcquisition())
				? String.format(Locale.ROOT, "%.3f", row.writesPerAcquisition()) : "–";
	}

	private static String throughput(ResultRow row) {
		return String.format(Locale.ROOT, (row.throughput() < 100) ? "%.1f" : "%.0f", row.throughput());
	}

	private String ratioText(ResultRow row) {
		OptionalDouble ratio = ratio(row);
		return ratio.isPresent() ? String.format(Locale.ROOT, "%.2f×", ratio.getAsDouble()) : "–";
	}

	private static String exclusionText(ResultRow row) {
		return switch (row.exclusion()) {
			case HELD -> "held";
			case VIOLATED -> "**VIOLATED**";
			case NOT_CHECKED -> "–";
		};
	}

}
