package dev.zklock.integration.leader;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.zklock.integration.ZooKeeperIntegrationLockRegistry;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A leader whose connection to ZooKeeper is suspended stops leading at its next
 * heartbeat, since ZooKeeper may give its lock to another process meanwhile, and leads
 * again, with a greater fencing token, once ZooKeeper is back.
 */
class LeaderLossTests {

	private static final Duration AWAIT = Duration.ofSeconds(30);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final BlockingQueue<String> reports = new LinkedBlockingQueue<>();

	private ZooKeeperLockRegistry zklock;

	private LockRegistryLeaderInitiator initiator;

	@BeforeEach
	void createCandidate() throws Exception {
		this.zklock = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		ZooKeeperIntegrationLockRegistry registry = new ZooKeeperIntegrationLockRegistry(this.zklock);
		this.initiator = new LockRegistryLeaderInitiator(registry,
				new ReportingCandidate(registry, "reporting", this.reports::add));
	}

	@AfterEach
	void stopRunning() throws Exception {
		this.initiator.destroy();
		this.zklock.close();
	}

	@Test
	void leaderStepsDownWhenItsConnectionIsSuspendedAndLeadsAgainOnceItIsBack() throws Exception {
		this.initiator.start();
		long firstToken = ReportingCandidate.tokenOf(nextReport());
		assertThat(this.initiator.getContext().isLeader()).isTrue();
		this.zookeeper.stop();
		assertThat(nextReport()).isEqualTo("REVOKED");
		assertThat(this.initiator.getContext().isLeader()).isFalse();
		this.zookeeper.restart();
		assertThat(ReportingCandidate.tokenOf(nextReport())).isGreaterThan(firstToken);
		assertThat(this.initiator.getContext().isLeader()).isTrue();
	}

	private String nextReport() throws InterruptedException {
		String report = this.reports.poll(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(report).as("a report of the candidate within " + AWAIT).isNotNull();
		return report;
	}

}
