package dev.zklock.benchmarks;

import java.nio.file.Path;
import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the command lines of {@link Workload} and the lines of {@link WorkerResult}.
 */
class WorkloadTests {

	@Test
	void aFixedKeysLoadReadsBackFromItsCommandEvenWithSpacesInThePath() {
		FixedKeysLoad load = new FixedKeysLoad(16, 1, Duration.ofSeconds(2), Duration.ofMillis(4500), true,
				Path.of("/tmp/my runs/probe-3"));
		assertThat(Workload.parse(load.toCommand())).isEqualTo(load);
	}

	@Test
	void aDistinctKeysLoadReadsBackFromItsCommand() {
		DistinctKeysLoad load = new DistinctKeysLoad(32, 1_000_000, true, Path.of("/tmp/my runs"));
		assertThat(Workload.parse(load.toCommand())).isEqualTo(load);
	}

	@Test
	void aResultReadsBackFromItsLineWithOrWithoutHeapGrowthPinnedEventsOrAllocatedBytes() {
		WorkerResult timed = new WorkerResult(900, 1100, 5_000_000_000L, 12_000_000, 2200, null, null, null, null);
		WorkerResult measuredHeap = new WorkerResult(100, 100, 1_000_000_000L, 3_000_000, 300, -2048L, null, null,
				null);
		assertThat(WorkerResult.parse(timed.toLine())).isEqualTo(timed);
		assertThat(WorkerResult.parse(measuredHeap.toLine())).isEqualTo(measuredHeap);
		WorkerResult virtual = new WorkerResult(100, 100, 1_000_000_000L, 3_000_000, 300, null, 0L, 3L, null);
		assertThat(WorkerResult.parse(virtual.toLine())).isEqualTo(virtual);
		WorkerResult counted = new WorkerResult(100, 100, 1_000_000_000L, 3_000_000, 300, null, null, null, 37_000L);
		assertThat(WorkerResult.parse(counted.toLine())).isEqualTo(counted);
		assertThat(timed.throughput()).isEqualTo(180.0);
	}

	@Test
	void roundsOfOneJvmAddUp() {
		WorkerResult first = new WorkerResult(10, 12, 1_000_000_000L, 5, 24, null, null, null, 1200L);
		WorkerResult second = new WorkerResult(30, 31, 1_000_000_000L, 9, 62, null, null, null, 3100L);
		assertThat(first.plus(second))
			.isEqualTo(new WorkerResult(40, 43, 2_000_000_000L, 9, 86, null, null, null, 4300L));
		WorkerResult pinned = new WorkerResult(10, 12, 1_000_000_000L, 5, 24, null, 2L, 1L, null);
		assertThat(pinned.plus(pinned).pinnedEvents()).isEqualTo(4);
		assertThat(pinned.plus(pinned).pinnedOutside()).isEqualTo(2);
	}

}
