package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.Set;
import java.util.concurrent.ScheduledThreadPoolExecutor;

import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A process that stops running for half its session timeout may have lost its session
 * without its client knowing yet. The detector's own thread being held up stands in for
 * the whole process pausing here; the fault suite pauses real processes with SIGSTOP.
 */
class PauseDetectionTests {

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);

	@AfterEach
	void stopScheduler() {
		this.scheduler.shutdownNow();
	}

	@Test
	void pauseOfHalfTheSessionTimeoutLosesTheLocksUnderTheSuspendedTrigger() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		LockLossDetector detector = new LockLossDetector(client, LostLockPolicy.defaults(), this.scheduler);
		LockHold hold = heldBy(detector, client);
		assertThat(detector.isHeld(hold)).isTrue();
		pauseFor(pauseLongerThanHalfTheSessionTimeout());
		assertThat(detector.isHeld(hold)).isFalse();
		assertThat(hold.lossReason()).contains("paused");
	}

	@Test
	void shortPauseChangesNothing() throws Exception {
		// a long session, so that the detector's thread, late for its turn on a busy
		// machine, does not take that delay for a pause too
		int sessionTimeoutMillis = 10_000;
		CuratorFramework client = this.zookeeper.newClient(sessionTimeoutMillis);
		LockLossDetector detector = new LockLossDetector(client, LostLockPolicy.defaults(), this.scheduler);
		LockHold hold = heldBy(detector, client);
		pauseFor(Duration.ofMillis(sessionTimeoutMillis / 10));
		assertThat(detector.isHeld(hold)).isTrue();
	}

	@Test
	void underTheLostTriggerAPauseThatTheSessionSurvivesKeepsTheLock() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		LockLossDetector detector = new LockLossDetector(client,
				new LostLockPolicy(LostLockPolicy.Trigger.LOST, Set.of()), this.scheduler);
		LockHold hold = heldBy(detector, client);
		pauseFor(pauseLongerThanHalfTheSessionTimeout());
		await().atMost(Duration.ofSeconds(20)).until(() -> detector.isHeld(hold));
		assertThat(hold.lossReason()).isNull();
	}

	private static LockHold heldBy(LockLossDetector detector, CuratorFramework client) throws Exception {
		LockQueue.QueuedNode node = new LockQueue.QueuedNode("/locks/paused/lock-0000000000", LockNodeKind.EXCLUSIVE, 1,
				client.getZookeeperClient().getZooKeeper().getSessionId());
		LockHold hold = new LockHold("paused", node, node.fencingToken(0), Thread.currentThread(), null);
		detector.register(hold);
		return hold;
	}

	private static Duration pauseLongerThanHalfTheSessionTimeout() {
		return Duration.ofMillis(ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS * 3 / 4);
	}

	/**
	 * Keeps the detector's thread from running, then lets it run again.
	 */
	private void pauseFor(Duration pause) throws Exception {
		this.scheduler.submit(() -> sleep(pause)).get();
	}

	private static void sleep(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
