package dev.zklock.benchmarks;

import java.util.List;

import dev.zklock.benchmarks.ResultRow.Exclusion;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link WriteCapacity}.
 */
class WriteCapacityTests {

	private static final ResultRow WRITE_RATE = new ResultRow(Scenario.WRITE_RATE, WriteRateMeasurement.setting(), 4,
			"set-data", 10_000, 1, Exclusion.NOT_CHECKED, List.of());

	@Test
	void theWriteRateIsDividedByTheWritesOfAnAcquisition() {
		ResultRow cycle = row(Scenario.UNCONTENDED, "ours-template", 2.0);
		ResultRow handOff = row(Scenario.HOT_KEY, "ours-template", 0.001);
		WriteCapacity capacity = new WriteCapacity(List.of(cycle, WRITE_RATE, handOff));
		assertThat(capacity.isMeasured()).isTrue();
		assertThat(capacity.of(cycle)).hasValue(5_000);
		assertThat(capacity.cell(cycle)).isEqualTo("5,000/s");
		assertThat(capacity.cell(handOff)).isEqualTo("10,000,000/s");
		assertThat(capacity.of(WRITE_RATE)).isEmpty();
		assertThat(capacity.introduction(3)).contains("on a ZooKeeper ensemble of 3 servers")
			.contains("(10,000 writes/s, 4 connections × 64 outstanding setData)");
	}

	@Test
	void aVariantThatWritesNothingHasNoCapacity() {
		ResultRow localLock = row(Scenario.HOT_KEY, "fair-local-lock", 0);
		WriteCapacity capacity = new WriteCapacity(List.of(WRITE_RATE, localLock));
		assertThat(capacity.of(localLock)).isEmpty();
		assertThat(capacity.cell(localLock)).isEqualTo("– (no writes)");
	}

	@Test
	void withoutTheWriteRateItSaysHowToMeasureIt() {
		ResultRow cycle = row(Scenario.UNCONTENDED, "ours-template", 2.0);
		WriteCapacity capacity = new WriteCapacity(List.of(cycle));
		assertThat(capacity.isMeasured()).isFalse();
		assertThat(capacity.of(cycle)).isEmpty();
		assertThat(capacity.introduction(1)).startsWith("No write rate measured");
	}

	private static ResultRow row(Scenario scenario, String variant, double writesPerAcquisition) {
		return new ResultRow(scenario, "1 thread", 1, variant, 1000, writesPerAcquisition, Exclusion.HELD, List.of());
	}

}
