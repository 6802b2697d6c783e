package dev.zklock.scheduling;

import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.zklock.testsupport.ClusteredJobCluster;
import dev.zklock.testsupport.TickHistory;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A clustered job that runs every second in two and three application instances, each a
 * JVM of its own with a scheduler clock up to {@link #SKEW} off the machine's: every
 * second runs once, on one instance, and runs never overlap. The fault suite
 * ({@code ClusteredJobFaultTests} in {@code lock-fault-suite}) runs the same for a
 * minute, with instances killed and paused and ZooKeeper restarted.
 */
class ClusteredJobProcessTests {

	private static final Duration PERIOD = Duration.ofSeconds(1);

	/**
	 * How far an instance's scheduler clock is off: the spread is under half the period.
	 */
	private static final Duration SKEW = Duration.ofMillis(200);

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@TempDir
	Path directory;

	@Test
	void twoInstancesRunEachSecondOnce() {
		try (ClusteredJobCluster cluster = new ClusteredJobCluster(zookeeper.connectString(), this.directory, PERIOD,
				Duration.ofMillis(1), List.of(SKEW, SKEW.negated()), Duration.ZERO)) {
			TickHistory history = cluster.awaitRuns(12);
			history.eachScheduledTimeRanOnce().noRunsOverlapped().fencingTokensIncrease();
			assertThat(history.everyScheduledTimeRanOrWasCovered((time) -> time.plus(PERIOD), SKEW)).isEmpty();
		}
	}

	@Test
	void threeInstancesRunRunsOfOneAndAHalfSecondsOneAfterTheOther() {
		try (ClusteredJobCluster cluster = new ClusteredJobCluster(zookeeper.connectString(), this.directory, PERIOD,
				PERIOD.multipliedBy(3).dividedBy(2), List.of(SKEW, Duration.ZERO, SKEW.negated()), Duration.ZERO)) {
			TickHistory history = cluster.awaitRuns(8);
			history.eachScheduledTimeRanOnce().noRunsOverlapped().fencingTokensIncrease();
			assertThat(history.everyScheduledTimeRanOrWasCovered((time) -> time.plus(PERIOD), SKEW.multipliedBy(2)))
				.isNotEmpty();
		}
	}

}
