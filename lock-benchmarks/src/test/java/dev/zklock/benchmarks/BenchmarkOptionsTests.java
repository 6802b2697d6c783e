package dev.zklock.benchmarks;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The harness's command line refuses counts that no run can have, naming the option,
 * before any server or worker JVM starts.
 */
class BenchmarkOptionsTests {

	@ParameterizedTest
	@ValueSource(strings = { "--rounds", "--threads", "--jvm-threads", "--random-keys", "--random-keys-threads",
			"--keys", "--keys-threads", "--virtual-threads", "--jmh-iterations", "--jmh-warmups", "--ensemble" })
	void countBelowOneIsRefusedNamingItsOption(String option) {
		assertThatIllegalArgumentException().isThrownBy(() -> BenchmarkOptions.parse(option, "0"))
			.withMessage(option + " must be at least 1: 0");
		assertThat(BenchmarkOptions.parse(option, "3")).isNotNull();
	}

}
