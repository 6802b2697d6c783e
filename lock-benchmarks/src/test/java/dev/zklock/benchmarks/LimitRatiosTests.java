package dev.zklock.benchmarks;

import java.util.List;

import dev.zklock.benchmarks.ResultRow.Exclusion;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link LimitRatios}.
 */
class LimitRatiosTests {

	private static final List<Variant> VARIANTS = List.of(Variant.parse("curator"), Variant.parse("ours-template"),
			Variant.parse("set-data"), Variant.parse("queue-node"), Variant.parse("fair-local-lock"));

	@Test
	void theUncontendedCycleComparesTimesAndTheHotKeyThroughputs() {
		ResultRow setData = row(Scenario.UNCONTENDED, "1 thread", "set-data", 1000);
		ResultRow template = row(Scenario.UNCONTENDED, "1 thread", "ours-template", 800);
		ResultRow fairLock = row(Scenario.HOT_KEY, "16 threads", "fair-local-lock", 100_000);
		ResultRow hotTemplate = row(Scenario.HOT_KEY, "16 threads", "ours-template", 85_000);
		ResultRow curator = row(Scenario.HOT_KEY, "16 threads", "curator", 500);
		LimitRatios ratios = new LimitRatios(VARIANTS, List.of(setData, template, fairLock, hotTemplate, curator));
		assertThat(ratios.limitOf(template)).contains(setData);
		assertThat(ratios.throughputToLimit(hotTemplate)).hasValue(0.85);
		assertThat(ratios.toMarkdown()).contains(
				"| uncontended cycle (JMH), 1 thread | time per cycle ÷ one set-data round trip | ≤ 1.3× (ours-template) "
						+ "| 1,000 µs | – | 1.25× |")
			.contains(
					"| one hot key, 16 threads | throughput ÷ fair-local-lock's | ≥ 0.8× | 100,000/s | 1/200 | 0.85× |");
	}

	@Test
	void theUncontendedCycleComparesWithTheProtocolFloorBesideSetData() {
		ResultRow floor = row(Scenario.UNCONTENDED, "1 thread", "queue-node", 1250);
		ResultRow setData = row(Scenario.UNCONTENDED, "1 thread", "set-data", 2500);
		ResultRow template = row(Scenario.UNCONTENDED, "1 thread", "ours-template", 1000);
		LimitRatios ratios = new LimitRatios(VARIANTS, List.of(floor, setData, template));
		assertThat(ratios.limitOf(template)).contains(setData);
		assertThat(ratios.limitsOf(template)).containsExactly(setData, floor);
		assertThat(ratios.toMarkdown()).contains(
				"| uncontended cycle (JMH), 1 thread | time per cycle ÷ one set-data round trip | ≤ 1.3× (ours-template) "
						+ "| 400 µs | – | 2.50× |\n"
						+ "| uncontended cycle (JMH), 1 thread | time per cycle ÷ the protocol floor (queue-node) | – "
						+ "| 800 µs | – | 1.25× |\n");
	}

	@Test
	void twoJvmsCompareEachJvmWithTheLockOfThatJvmBesideItsShare() {
		ResultRow fairLock = twoJvms("fair-local-lock", 50, 100_000, 50, 100_000);
		ResultRow template = twoJvms("ours-template", 80, 40_000, 20, 10_000);
		LimitRatios ratios = new LimitRatios(VARIANTS, List.of(fairLock, template));
		assertThat(ratios.toMarkdown())
			.contains("| 100,000 / 100,000/s | – | 0.40× / 0.10× (80.0 / 20.0 %, below a third) |");
	}

	@Test
	void withoutLimitsItSaysHowToRunThem() {
		LimitRatios ratios = new LimitRatios(VARIANTS, List.of(row(Scenario.HOT_KEY, "4 threads", "curator", 500)));
		assertThat(ratios.toMarkdown()).startsWith("No limit ran");
	}

	private static ResultRow row(Scenario scenario, String setting, String variant, double throughput) {
		return new ResultRow(scenario, setting, 16, variant, throughput, 2, Exclusion.HELD, List.of());
	}

	private static ResultRow twoJvms(String variant, double share1, double throughput1, double share2,
			double throughput2) {
		List<Metric> metrics = List.of(
				new Metric(FixedKeysMeasurement.ofJvm(1, FixedKeysMeasurement.SHARE), share1, "%"),
				new Metric(FixedKeysMeasurement.ofJvm(1, FixedKeysMeasurement.THROUGHPUT), throughput1, "/s"),
				new Metric(FixedKeysMeasurement.ofJvm(2, FixedKeysMeasurement.SHARE), share2, "%"),
				new Metric(FixedKeysMeasurement.ofJvm(2, FixedKeysMeasurement.THROUGHPUT), throughput2, "/s"));
		return new ResultRow(Scenario.TWO_JVMS, "2 JVMs × 8 threads", 16, variant, throughput1 + throughput2, 2,
				Exclusion.HELD, metrics);
	}

}
