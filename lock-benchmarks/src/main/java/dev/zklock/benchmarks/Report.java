package dev.zklock.benchmarks;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.OptionalDouble;
import java.util.function.Function;
import java.util.function.Predicate;
import java.util.stream.Collectors;

/**
 * The rows of a run as Markdown: a table of throughput and ratio against raw Curator with
 * a column per variant and one for the limit of each setting, when peers ran one of the
 * ratios against zklock ({@code ours-template}) in the same layout, one of writes per
 * acquisition in the same layout, a table of every row with its further measurements, the
 * {@link LimitRatios ratios against the limits}, and last the {@link WriteCapacity
 * capacity} of the ZooKeeper servers in the same layout.
 */
final class Report {

	private static final String OURS = Variant.of(Library.OURS_TEMPLATE).name();

	private final List<Variant> variants;

	private final List<String> peerNames;

	private final List<String> limitNames;

	private final LimitRatios limits;

	private final WriteCapacity capacity;

	private final int servers;

	private final Map<String, List<ResultRow>> settings = new LinkedHashMap<>();

	/**
	 * Creates a report.
	 * @param variants the variants, limits included, in column order
	 * @param servers the number of ZooKeeper servers of the run
	 * @param rows the measured rows, in the order they ran
	 */
	Report(List<Variant> variants, int servers, List<ResultRow> rows) {
		this.servers = servers;
		this.variants = variants.stream().filter((variant) -> !variant.isLimit()).toList();
		this.limitNames = variants.stream().filter(Variant::isLimit).map(Variant::name).toList();
		this.peerNames = variants.stream().filter((variant) -> variant.library().isPeer()).map(Variant::name).toList();
		this.limits = new LimitRatios(variants, rows);
		this.capacity = new WriteCapacity(rows);
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
		return ratio(row, Variant.of(Library.CURATOR).name());
	}

	/**
	 * The throughput of the row against zklock's through {@code LockTemplate} in the same
	 * setting.
	 * @param row a row of this report
	 * @return the ratio, or empty when {@code ours-template} did not run
	 */
	OptionalDouble ratioToOurs(ResultRow row) {
		return ratio(row, OURS);
	}

	private OptionalDouble ratio(ResultRow row, String baselineName) {
		return this.settings.get(row.scenario().title() + " | " + row.setting())
			.stream()
			.filter((candidate) -> candidate.variant().equals(baselineName))
			.mapToDouble((baseline) -> row.throughput() / baseline.throughput())
			.findFirst();
	}

	/**
	 * The acquisitions per second that the ZooKeeper servers sustain in a row's variant
	 * and setting, if their writes are the bottleneck.
	 * @param row a row of this report
	 * @return the capacity, or empty as {@link WriteCapacity#of(ResultRow)} says, and for
	 * a peer, which does not write to ZooKeeper
	 */
	OptionalDouble capacityOf(ResultRow row) {
		return this.peerNames.contains(row.variant()) ? OptionalDouble.empty() : this.capacity.of(row);
	}

	/**
	 * The number of ZooKeeper servers of the run.
	 * @return 1 for a standalone server
	 */
	int servers() {
		return this.servers;
	}

	/**
	 * The variants against the limits of the run.
	 * @return the ratios
	 */
	LimitRatios limits() {
		return this.limits;
	}

	/**
	 * The servers' capacity if writes are the bottleneck.
	 * @return the capacity
	 */
	WriteCapacity capacity() {
		return this.capacity;
	}

	/**
	 * The report.
	 * @return the Markdown text
	 */
	String toMarkdown() {
		StringBuilder text = new StringBuilder();
		text.append("On ")
			.append(BenchmarkServers.summary(this.servers))
			.append(". Throughput in acquisitions per second; in brackets, the ratio against raw Curator in the same ")
			.append("run.\n\n");
		appendByVariant(text, (scenario) -> true, (row) -> throughput(row) + " (" + ratioText(row) + ")",
				Report::throughput);
		if (!this.peerNames.isEmpty() && this.variants.stream().anyMatch((variant) -> variant.name().equals(OURS))) {
			text.append("\nThroughput against zklock (").append(OURS).append(") in the same run.\n\n");
			appendByVariant(text, (scenario) -> !scenario.measuresServers(), this::ratioToOursText,
					this::ratioToOursText);
		}
		text.append("\nWrites per acquisition, counted at each variant's client as it sends them, warm-up included: ")
			.append("on ZooKeeper its creates, deletes, setData and multi-operation transactions; on Redis the Lua ")
			.append("script calls (EVAL, EVALSHA), each an atomic change (Redisson's locks change Redis only through ")
			.append("scripts, the release's publish included); on PostgreSQL the INSERT, UPDATE and DELETE statements, ")
			.append("whether they changed a row or not (the JDBC registry's UPDATE and INSERT of one try share a ")
			.append("transaction; ShedLock's every failed try is a statement).\n\n");
		appendByVariant(text, (scenario) -> true, Report::writesText, Report::writesText);
		text.append("\n| scenario | setting | variant | acquisitions/s | × curator | × ")
			.append(OURS)
			.append(" | writes/acquisition | exclusion | measurements |\n")
			.append("|---|---|---|--:|--:|--:|--:|---|---|\n");
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
					.append(ratioToOursText(row))
					.append(" | ")
					.append(writesText(row))
					.append(" | ")
					.append(exclusionText(row))
					.append(" | ")
					.append(row.metrics().stream().map(Metric::toText).collect(Collectors.joining(", ")))
					.append(" |\n")));
		text.append('\n').append(this.limits.toMarkdown());
		text.append('\n').append(this.capacity.introduction(this.servers));
		if (this.capacity.isMeasured()) {
			text.append('\n');
			appendByVariant(text, (scenario) -> !scenario.measuresServers(), this::capacityCell, this.capacity::cell);
		}
		return text.toString();
	}

	/**
	 * A table with a row per setting of the scenarios shown, a column per variant and,
	 * when limits ran, a column for the limits of each setting, each named beside its
	 * value.
	 */
	private void appendByVariant(StringBuilder text, Predicate<Scenario> shown, Function<ResultRow, String> cell,
			Function<ResultRow, String> limitCell) {
		boolean withLimits = !this.limitNames.isEmpty();
		text.append("| scenario | setting | ")
			.append(this.variants.stream().map(Variant::name).collect(Collectors.joining(" | ")))
			.append(withLimits ? " | limit" : "")
			.append(" |\n|---|---|")
			.append("--:|".repeat(this.variants.size() + (withLimits ? 1 : 0)))
			.append('\n');
		this.settings.forEach((setting, rows) -> {
			if (!shown.test(rows.get(0).scenario())) {
				return;
			}
			text.append("| ").append(setting).append(" |");
			for (Variant variant : this.variants) {
				text.append(' ').append(cell(rows, variant, cell)).append(" |");
			}
			if (withLimits) {
				text.append(' ')
					.append(this.limits.limitsOf(rows.get(0))
						.stream()
						.map((limit) -> limitCell.apply(limit) + " (" + limit.variant() + ")")
						.reduce((first, second) -> first + " / " + second)
						.orElse("–"))
					.append(" |");
			}
			text.append('\n');
		});
	}

	/**
	 * The cell of a variant in a row of a table.
	 * @param rows the rows of the table row's setting
	 * @param variant the variant of the cell
	 * @param cell the cell's text for the variant's row
	 * @return the text, or a dash when the variant has no row in the setting
	 */
	static String cell(List<ResultRow> rows, Variant variant, Function<ResultRow, String> cell) {
		return rows.stream().filter((row) -> row.variant().equals(variant.name())).findFirst().map(cell).orElse("–");
	}

	private static String writesText(ResultRow row) {
		return Double.isFinite(row.writesPerAcquisition())
				? String.format(Locale.ROOT, "%.3f", row.writesPerAcquisition()) : "–";
	}

	private static String throughput(ResultRow row) {
		return String.format(Locale.ROOT, (row.throughput() < 100) ? "%.1f" : "%.0f", row.throughput());
	}

	private String ratioText(ResultRow row) {
		return ratioText(ratio(row));
	}

	/**
	 * The ratio against zklock, below a tenth as a fraction ({@code 1/90}): the peers
	 * beside zklock's hand-off on a hot key.
	 */
	private String ratioToOursText(ResultRow row) {
		OptionalDouble ratio = ratioToOurs(row);
		return (ratio.isPresent() && Double.isFinite(ratio.getAsDouble())) ? LimitRatios.ratio(ratio.getAsDouble())
				: "–";
	}

	/**
	 * A ratio as {@code 0.85×}, or a dash when there is none or it is not finite (a
	 * baseline that completed nothing in a short window).
	 */
	private static String ratioText(OptionalDouble ratio) {
		return (ratio.isPresent() && Double.isFinite(ratio.getAsDouble()))
				? String.format(Locale.ROOT, "%.2f×", ratio.getAsDouble()) : "–";
	}

	private String capacityCell(ResultRow row) {
		return this.peerNames.contains(row.variant()) ? "– (not ZooKeeper)" : this.capacity.cell(row);
	}

	private static String exclusionText(ResultRow row) {
		return switch (row.exclusion()) {
			case HELD -> "held";
			case VIOLATED -> "**VIOLATED**";
			case NOT_CHECKED -> "–";
		};
	}

}
