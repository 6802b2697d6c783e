package dev.zklock.benchmarks;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link ExclusionProbe} at the size of the random-keys scenario.
 */
class ExclusionProbeTests {

	@Test
	void aSecondHolderInsideTheLastOfAThousandKeysIsAnOverlapWhileHoldersOfOtherKeysAreNot(@TempDir Path directory) {
		Path file = directory.resolve("probe");
		ExclusionProbe probe = ExclusionProbe.map(file, 1000);
		assertThat(file).hasSize(16_008);
		probe.enter(998, 1);
		probe.enter(999, 2);
		assertThat(probe.overlaps()).isZero();
		probe.enter(999, 3);
		assertThat(probe.overlaps()).isOne();
		// A second mapping, as another JVM of the run makes, sees what the first did
		ExclusionProbe other = ExclusionProbe.map(file, 1000);
		assertThat(other.overlaps()).isOne();
		assertThat(other.counted(999)).isEqualTo(2);
		assertThat(other.counted()).isEqualTo(3);
	}

}
