package dev.zklock.faults;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A fault run per test, started before it (as its {@link RunOptions} say, if it has any)
 * and closed after it, and the baseline every fault is measured against: without faults,
 * every thread progresses and the checker finds nothing.
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
		Method method = test.getTestMethod().orElseThrow();
		FaultRun.Setup setup = FaultRun.Setup.of(this.servers);
		RunOptions options = method.getAnnotation(RunOptions.class);
		if (options != null) {
			setup = new FaultRun.Setup(this.servers,
					(options.sessionTimeoutMillis() > 0) ? Duration.ofMillis(options.sessionTimeoutMillis())
							: setup.sessionTimeout(),
					List.of(options.workerProperties()), List.of(options.victimProperties()),
					options.storeAcceptsStaleTokens());
		}
		this.run = FaultRun.start(this.runPrefix + method.getName(), setup);
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
