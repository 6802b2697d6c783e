package dev.zklock.faults;

import java.time.Duration;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fault run per test, started before it and closed after it, and the baseline every
 * fault is measured against: without faults, every thread progresses and the checker
 * finds nothing.
 */
abstract class FaultRunTests {

	static final Duration QUIET_PERIOD = Duration.ofSeconds(10);

	private final String runPrefix;

	private final int servers;

	FaultRun run;

	/**
	 * Creates the tests of runs against a number of ZooKeeper servers.
	 * @param runPrefix the prefix of each run's name, before the test's name
	 * @param servers the number of ZooKeeper servers: 1 for a standalone server
	 */
	FaultRunTests(String runPrefix, int servers) {
		this.runPrefix = runPrefix;
		this.servers = servers;
	}

	@BeforeEach
	void startRun(TestInfo test) throws Exception {
		this.run = FaultRun.start(this.runPrefix + test.getTestMethod().orElseThrow().getName(), this.servers);
	}

	@AfterEach
	void closeRun() {
		if (this.run != null) {
			this.run.close();
		}
	}

	@Test
	void withoutFaultsEveryThreadProgressesAndNothingIsViolated() throws Exception {
		assertThat(this.run.quietThenCheck(QUIET_PERIOD)).isEmpty();
	}

}
