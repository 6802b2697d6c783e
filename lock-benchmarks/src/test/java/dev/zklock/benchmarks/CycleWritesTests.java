package dev.zklock.benchmarks;

import java.nio.file.Path;

import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link CycleWrites}.
 */
class CycleWritesTests {

	@Test
	void theForksOfAVariantAddUp(@TempDir Path directory) throws Exception {
		Path file = directory.resolve("writes.txt");
		CycleWrites.append(file, "curator", 1000, 2010);
		CycleWrites.append(file, "set-data", 4000, 4000);
		CycleWrites.append(file, "curator", 3000, 6030);
		assertThat(CycleWrites.perCycle(file)).containsOnlyKeys("curator", "set-data")
			.containsEntry("curator", 2.01)
			.containsEntry("set-data", 1.0);
	}

	@Test
	void noFileIsNoVariant(@TempDir Path directory) throws Exception {
		assertThat(CycleWrites.perCycle(directory.resolve("missing.txt"))).isEmpty();
	}

}
