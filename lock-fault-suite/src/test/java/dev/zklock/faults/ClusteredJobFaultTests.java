package dev.zklock.faults;

import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.List;

import dev.zklock.testsupport.ClusteredJobCluster;
import dev.zklock.testsupport.TickHistory;
import dev.zklock.testsupport.TickHistory.Run;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A clustered job that runs every second, for more than a minute, in three application
 * instances (JVMs of their own, scheduler clocks up to {@link #SKEW} off the machine's),
 * through the faults a cluster meets: the instance running a tick killed with SIGKILL,
 * another paused with SIGSTOP during its run past its session timeout and resumed,
 * ZooKeeper restarted between ticks, and every instance stopped and started again. Every
 * second runs once; runs never overlap while their instance holds the job's lock; a
 * second that passed while a dead or paused instance's lock outlived it, or while the
 * instances could not reach the restarting ZooKeeper, is covered by the late run after
 * it; and the later a second, the greater the fencing token of its run.
 */
class ClusteredJobFaultTests {

	private static final Duration PERIOD = Duration.ofSeconds(1);

	private static final Duration RUN_TIME = Duration.ofMillis(300);

	private static final Duration SKEW = Duration.ofMillis(200);

	/**
	 * How long the lock of a killed or paused instance outlives it: its session, and a
	 * tick.
	 */
	private static final Duration LOCK_OUTLIVES_INSTANCE = Duration
		.ofMillis(ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS + 1_000);

	/**
	 * How long the instances take to reach ZooKeeper again after its restart, at most.
	 */
	private static final Duration RECONNECT = Duration.ofSeconds(3);

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@TempDir
	Path directory;

	@Test
	void everySecondRunsOnceForAMinuteThroughKillPauseAndRestarts() throws Exception {
		List<Duration> clocks = List.of(SKEW, Duration.ZERO, SKEW.negated());
		int before;
		try (ClusteredJobCluster cluster = new ClusteredJobCluster(zookeeper.connectString(), this.directory, PERIOD,
				RUN_TIME, clocks, LOCK_OUTLIVES_INSTANCE)) {
			cluster.awaitRuns(10);
			cluster.killRunningInstance();
			cluster.awaitRuns(cluster.history().size() + 10);
			String paused = cluster.pauseRunningInstance();
			int beforePause = cluster.history().size();
			cluster.awaitRuns(beforePause + 5);
			cluster.resume(paused);
			cluster.awaitRuns(cluster.history().size() + 10);
			await().atMost(Duration.ofMinutes(1)).until(() -> cluster.history().inProgress().isEmpty());
			long restarting = System.currentTimeMillis();
			zookeeper.restart();
			long restarted = System.currentTimeMillis() + RECONNECT.toMillis();
			TickHistory history = cluster.awaitRuns(cluster.history().size() + 30).withOutage(restarting, restarted);
			check(history);
			before = history.size();
		}
		try (ClusteredJobCluster restarted = new ClusteredJobCluster(zookeeper.connectString(), this.directory, PERIOD,
				RUN_TIME, clocks.subList(0, 2), LOCK_OUTLIVES_INSTANCE)) {
			TickHistory history = restarted.awaitRuns(before + 5);
			history.eachScheduledTimeRanOnce().fencingTokensIncrease();
			assertThat(history.size()).isGreaterThanOrEqualTo(65);
		}
	}

	private static void check(TickHistory history) {
		history.eachScheduledTimeRanOnce().noRunsOverlapped().fencingTokensIncrease();
		List<Instant> covered = history.everyScheduledTimeRanOrWasCovered((time) -> time.plus(PERIOD),
				SKEW.multipliedBy(2));
		assertThat(covered).as("seconds covered by a late run, each while a dead or paused instance held the lock")
			.hasSizeLessThanOrEqualTo(2 * (int) LOCK_OUTLIVES_INSTANCE.dividedBy(PERIOD) + 2);
		assertThat(history.runs()).extracting(Run::instance).contains("i0", "i1", "i2");
	}

}
