package dev.zklock.benchmarks;

import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;
import java.util.OptionalDouble;
import java.util.stream.Collectors;

/**
 * The variants against the physical limits measured in the same run, setting by setting:
 * the time of an uncontended cycle against one {@code setData} round trip and against the
 * protocol floor, zklock's requests with none of its work, hot-key throughput against a
 * fair local lock taken by the same threads, and with two JVMs each JVM's throughput
 * against the fair lock's in that JVM, beside each JVM's share of the acquisitions. Where
 * several limits ran in a setting, the first in {@link Library}'s order is the setting's
 * limit, which its target refers to.
 */
final class LimitRatios {

	private static final double SHARE_BOUND = 100.0 / 3;

	private static final int TARGET_THREADS = 16;

	private final List<Variant> variants;

	private final Map<String, List<ResultRow>> settings = new LinkedHashMap<>();

	private final Map<String, List<ResultRow>> limits = new LinkedHashMap<>();

	private final Map<String, Library> limitLibraries;

	/**
	 * Finds the limit of every setting.
	 * @param variants the variants, limits included, in column order
	 * @param rows the measured rows, in the order they ran
	 */
	LimitRatios(List<Variant> variants, List<ResultRow> rows) {
		this.variants = variants.stream().filter((variant) -> !variant.isLimit()).toList();
		this.limitLibraries = variants.stream()
			.filter(Variant::isLimit)
			.collect(Collectors.toMap(Variant::name, Variant::library));
		for (ResultRow row : rows) {
			(this.limitLibraries.containsKey(row.variant()) ? this.limits : this.settings)
				.computeIfAbsent(settingOf(row), (key) -> new ArrayList<>())
				.add(row);
		}
		this.limits.values().forEach((limitRows) -> limitRows.sort(Comparator.comparing(this::libraryOf)));
	}

	/**
	 * The row of the limit measured in the same setting as a row.
	 * @param row a row
	 * @return the limit's row, or empty when no limit ran in the setting
	 */
	Optional<ResultRow> limitOf(ResultRow row) {
		return limitsOf(row).stream().findFirst();
	}

	/**
	 * The rows of every limit measured in the same setting as a row, the setting's limit
	 * first.
	 * @param row a row
	 * @return the limits' rows, empty when no limit ran in the setting
	 */
	List<ResultRow> limitsOf(ResultRow row) {
		return this.limits.getOrDefault(settingOf(row), List.of());
	}

	/**
	 * The throughput of a row against its limit's, all JVMs together.
	 * @param row a row
	 * @return the ratio, or empty when no limit ran in the setting
	 */
	OptionalDouble throughputToLimit(ResultRow row) {
		return limitOf(row).map((limit) -> OptionalDouble.of(row.throughput() / limit.throughput()))
			.orElse(OptionalDouble.empty());
	}

	/**
	 * The ratios as a Markdown table with a row per setting that has a limit.
	 * @return the table, or a line saying that no limit ran
	 */
	String toMarkdown() {
		if (this.limits.values().stream().noneMatch(LimitRatios::comparesVariants)) {
			return "No limit ran: add set-data, queue-node and fair-local-lock to --library to compare with them.\n";
		}
		StringBuilder text = new StringBuilder(
				"Against the physical limits measured in the same run (for the uncontended cycle, the ratio of times, "
						+ "lower is better; otherwise of throughputs, higher is better):\n\n");
		text.append("| setting | ratio | target | limit | ")
			.append(this.variants.stream().map(Variant::name).collect(Collectors.joining(" | ")))
			.append(" |\n|---|---|---|--:|")
			.append("--:|".repeat(this.variants.size()))
			.append('\n');
		this.limits.forEach((setting, limitRows) -> {
			if (!comparesVariants(limitRows)) {
				return;
			}
			List<ResultRow> rows = this.settings.getOrDefault(setting, List.of());
			for (ResultRow limit : limitRows) {
				text.append("| ")
					.append(limit.scenario().title())
					.append(", ")
					.append(limit.setting())
					.append(" | ")
					.append(measure(limit))
					.append(" | ")
					.append((limit == limitRows.get(0)) ? target(limit) : "–")
					.append(" | ")
					.append(limitText(limit))
					.append(" |");
				for (Variant variant : this.variants) {
					text.append(' ').append(Report.cell(rows, variant, (row) -> ratioText(row, limit))).append(" |");
				}
				text.append('\n');
			}
		});
		return text.toString();
	}

	/**
	 * Whether the limits of a setting are there to compare variants with: the write rate
	 * is no variant's limit, {@link WriteCapacity} divides it.
	 */
	private static boolean comparesVariants(List<ResultRow> limitRows) {
		return !limitRows.get(0).scenario().measuresServers();
	}

	private String measure(ResultRow limit) {
		return switch (limit.scenario()) {
			case UNCONTENDED -> (libraryOf(limit) == Library.QUEUE_NODE)
					? "time per cycle ÷ the protocol floor (" + limit.variant() + ")"
					: "time per cycle ÷ one " + limit.variant() + " round trip";
			case TWO_JVMS -> "each JVM's throughput ÷ " + limit.variant() + "'s in that JVM (shares)";
			default -> "throughput ÷ " + limit.variant() + "'s";
		};
	}

	private Library libraryOf(ResultRow limit) {
		return this.limitLibraries.get(limit.variant());
	}

	/**
	 * The target of the setting's limit; the other limits of a setting have none.
	 */
	private static String target(ResultRow limit) {
		return switch (limit.scenario()) {
			case UNCONTENDED -> "≤ 1.3× (ours-template)";
			case HOT_KEY -> (limit.threads() == TARGET_THREADS) ? "≥ 0.8×" : "–";
			case TWO_JVMS -> "each JVM's share ≥ 33.3 %";
			default -> "–";
		};
	}

	private static String limitText(ResultRow limit) {
		return switch (limit.scenario()) {
			case UNCONTENDED -> String.format(Locale.ROOT, "%,.0f µs", 1e6 / limit.throughput());
			case TWO_JVMS -> jvmThroughputs(limit).stream()
				.map((throughput) -> String.format(Locale.ROOT, "%,.0f", throughput))
				.collect(Collectors.joining(" / ", "", "/s"));
			default -> String.format(Locale.ROOT, "%,.0f/s", limit.throughput());
		};
	}

	private static String ratioText(ResultRow row, ResultRow limit) {
		return switch (limit.scenario()) {
			case UNCONTENDED -> ratio(limit.throughput() / row.throughput());
			case TWO_JVMS -> perJvmText(row, limit);
			default -> ratio(row.throughput() / limit.throughput());
		};
	}

	private static String perJvmText(ResultRow row, ResultRow limit) {
		List<Double> ours = jvmThroughputs(row);
		List<Double> limits = jvmThroughputs(limit);
		if (ours.stream().allMatch((throughput) -> throughput == 0)) {
			return "no acquisition measured";
		}
		List<String> ratios = new ArrayList<>();
		List<String> shares = new ArrayList<>();
		boolean kept = true;
		for (int i = 0; i < ours.size(); i++) {
			ratios.add(ratio(ours.get(i) / limits.get(i)));
			double share = row.metric(FixedKeysMeasurement.ofJvm(i + 1, FixedKeysMeasurement.SHARE)).orElse(Double.NaN);
			shares.add(String.format(Locale.ROOT, "%.1f", share));
			kept &= share >= SHARE_BOUND;
		}
		return String.join(" / ", ratios) + " (" + String.join(" / ", shares) + " %" + (kept ? "" : ", below a third")
				+ ")";
	}

	private static List<Double> jvmThroughputs(ResultRow row) {
		List<Double> throughputs = new ArrayList<>();
		OptionalDouble throughput = row.metric(FixedKeysMeasurement.ofJvm(1, FixedKeysMeasurement.THROUGHPUT));
		while (throughput.isPresent()) {
			throughputs.add(throughput.getAsDouble());
			throughput = row
				.metric(FixedKeysMeasurement.ofJvm(throughputs.size() + 1, FixedKeysMeasurement.THROUGHPUT));
		}
		return throughputs;
	}

	/**
	 * A ratio as {@code 0.85×}, or below a tenth as a fraction, {@code 1/65}, so that the
	 * small ratios against a local lock, or against zklock's hand-off, stay readable.
	 * @param value the ratio
	 * @return the text
	 */
	static String ratio(double value) {
		if (value == 0) {
			return "0";
		}
		if (value >= 0.1 || value < 0 || !Double.isFinite(value)) {
			return String.format(Locale.ROOT, "%.2f×", value);
		}
		return String.format(Locale.ROOT, "1/%,.0f", 1 / value);
	}

	private static String settingOf(ResultRow row) {
		return row.scenario().title() + " | " + row.setting();
	}

}
