package dev.zklock.integration.leader;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.zklock.integration.ZooKeeperIntegrationLockRegistry;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.LeaderElection;
import dev.zklock.zookeeper.LeaderTerm;
import dev.zklock.zookeeper.LeadershipListener;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Integration's {@link LockRegistryLeaderInitiator} over zklock's registry keeps
 * working beside zklock's own {@link LeaderElection}: both take the lock of the role, so
 * an instance of each, in the same role, lead one at a time, with a greater fencing token
 * each term, as during a migration from one to the other.
 */
class SharedLeadershipTests {

	private static final Duration AWAIT = Duration.ofSeconds(30);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final BlockingQueue<String> initiatorReports = new LinkedBlockingQueue<>();

	private final BlockingQueue<Object> electionEvents = new LinkedBlockingQueue<>();

	private LockRegistryLeaderInitiator initiator;

	private LeaderElection election;

	@AfterEach
	void stopBoth() throws Exception {
		if (this.election != null) {
			this.election.close();
		}
		if (this.initiator != null) {
			this.initiator.destroy();
		}
	}

	@Test
	void aLeaderInitiatorAndALeaderElectionOfTheSameRoleLeadOneAtATime() throws Exception {
		ZooKeeperIntegrationLockRegistry registry = new ZooKeeperIntegrationLockRegistry(
				new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks"));
		this.initiator = new LockRegistryLeaderInitiator(registry,
				new ReportingCandidate(registry, "invoicing", this.initiatorReports::add));
		this.initiator.start();
		long initiatorToken = ReportingCandidate.tokenOf(next(this.initiatorReports));
		this.election = new LeaderElection(new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks"), "invoicing",
				new LeadershipListener() {

					@Override
					public void granted(LeaderTerm term) {
						SharedLeadershipTests.this.electionEvents.add(term);
					}

					@Override
					public void revoked(LeaderTerm term, String reason) {
						SharedLeadershipTests.this.electionEvents.add(reason);
					}

				});
		this.election.start();
		assertThat(this.electionEvents.poll(500, TimeUnit.MILLISECONDS)).as("granted while the initiator leads")
			.isNull();
		this.initiator.getContext().yield();
		assertThat(next(this.initiatorReports)).isEqualTo("REVOKED");
		LeaderTerm term = (LeaderTerm) next(this.electionEvents);
		assertThat(term.fencingToken()).isGreaterThan(initiatorToken);
		assertThat(this.initiator.getContext().isLeader()).isFalse();
		this.election.close();
		assertThat(next(this.electionEvents)).asString().contains("closed");
		assertThat(ReportingCandidate.tokenOf(next(this.initiatorReports))).isGreaterThan(term.fencingToken());
	}

	private static <T> T next(BlockingQueue<T> queue) throws InterruptedException {
		T next = queue.poll(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(next).as("the next report").isNotNull();
		return next;
	}

}
