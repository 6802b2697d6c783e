package dev.zklock.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.atomic.LongAdder;
import java.util.stream.IntStream;

import dev.zklock.benchmarks.FixedKeysLoad.KeyChoice;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for the command lines of {@link Workload}, the lines of {@link WorkerResult}, and
 * the keys of a {@link FixedKeysLoad} picked at random.
 */
class WorkloadTests {

	@Test
	void aFixedKeysLoadReadsBackFromItsCommandEvenWithSpacesInThePath() {
		FixedKeysLoad load = new FixedKeysLoad(16, 1, KeyChoice.BY_THREAD, Duration.ofSeconds(2),
				Duration.ofMillis(4500), true, Path.of("/tmp/my runs/probe-3"));
		assertThat(Workload.parse(load.toCommand())).isEqualTo(load);
		FixedKeysLoad random = new FixedKeysLoad(16, 1000, KeyChoice.AT_RANDOM, Duration.ofSeconds(2),
				Duration.ofMillis(4500), false, Path.of("/tmp/my runs/probe-4"));
		assertThat(Workload.parse(random.toCommand())).isEqualTo(random);
	}

	@Test
	void keysAtRandomSpreadOverAThousandKeysAndTheProbeCountsEachUnderTheLockOfItsKey(@TempDir Path directory)
			throws Exception {
		Path probeFile = directory.resolve("probe");
		CountingDriver driver = new CountingDriver();
		WorkerResult result = new FixedKeysLoad(16, 1000, KeyChoice.AT_RANDOM, Duration.ZERO, Duration.ofMillis(300),
				false, probeFile)
			.run(driver);
		// On fair local locks, 16 threads get through about 350,000 acquisitions in 0.3 s
		// on two busy cores; after 100,000, the chance that any key is still left out is
		// below 1,000 × e^-100
		assertThat(driver.acquisitions)
			.containsOnlyKeys(IntStream.range(0, 1000).mapToObj((key) -> "key-" + key).toList());
		ExclusionProbe probe = ExclusionProbe.map(probeFile, 1000);
		assertThat(probe.overlaps()).isZero();
		assertThat(probe.counted()).isEqualTo(result.total());
		for (int key = 0; key < 1000; key++) {
			assertThat(probe.counted(key)).as("key-%d", key).isEqualTo(driver.acquisitions.get("key-" + key).sum());
		}
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

	/**
	 * A fair lock per key in this JVM that counts the acquisitions of each key, under the
	 * key's lock.
	 */
	private static final class CountingDriver implements LockDriver {

		private final LockDriver locks = new FairLocalLockDriver();

		private final ConcurrentMap<String, LongAdder> acquisitions = new ConcurrentHashMap<>();

		@Override
		public void withLock(String key, Runnable work) throws Exception {
			this.locks.withLock(key, () -> {
				this.acquisitions.computeIfAbsent(key, (name) -> new LongAdder()).increment();
				work.run();
			});
		}

		@Override
		public long writes() {
			return 0;
		}

		@Override
		public void close() {
		}

	}

}
