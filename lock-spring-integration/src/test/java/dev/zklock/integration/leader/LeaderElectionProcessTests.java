package dev.zklock.integration.leader;

import java.time.Duration;

import dev.zklock.testsupport.BusyMachine;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.QueuedLockNode;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Two JVMs run for one role through {@link LockRegistryLeaderInitiator} on the
 * auto-configured lock registry: one leads while the other waits in the role's lock
 * queue, and when the leader is killed ({@code kill -9}) the other takes over once
 * ZooKeeper ends the dead leader's session, with a greater fencing token.
 */
class LeaderElectionProcessTests {

	private static final Duration SESSION_TIMEOUT = Duration.ofSeconds(5);

	private static final Duration START_UP = Duration.ofSeconds(60);

	private static final String ROLE = "invoicing";

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@Test
	void theOtherProcessLeadsOnceTheKilledLeadersSessionEnds() throws Exception {
		ZooKeeperLockRegistry observer = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		try (CandidateProcess first = CandidateProcess.start("first", zookeeper.connectString(), SESSION_TIMEOUT, ROLE);
				CandidateProcess second = CandidateProcess.start("second", zookeeper.connectString(), SESSION_TIMEOUT,
						ROLE)) {
			CandidateProcess leader = awaitLeader(first, second);
			CandidateProcess follower = (leader == first) ? second : first;
			long leaderToken = ReportingCandidate.tokenOf(leader.awaitLine("GRANTED ", START_UP));
			follower.awaitLine("STARTED", START_UP);
			await().atMost(START_UP)
				.alias("the follower waiting in the role's queue behind the leader")
				.until(() -> observer.queueOf(ROLE),
						(queue) -> queue.size() == 2 && holds(queue.get(0), leader.pid()) && !queue.get(1).holding()
								&& queue.get(1).holder() != null && queue.get(1).holder().pid() == follower.pid());
			assertThat(follower.printed("GRANTED")).isFalse();
			long killedAt = System.nanoTime();
			leader.kill();
			long followerToken = ReportingCandidate
				.tokenOf(follower.awaitLine("GRANTED ", SESSION_TIMEOUT.plus(BusyMachine.MARGIN)));
			Duration takeOver = Duration.ofNanos(System.nanoTime() - killedAt);
			System.out.println("The follower took over " + takeOver.toMillis() + " ms after the leader was killed "
					+ "(session timeout " + SESSION_TIMEOUT.toMillis() + " ms)");
			assertThat(followerToken).isGreaterThan(leaderToken);
			assertThat(observer.queueOf(ROLE)).singleElement().satisfies((node) -> holds(node, follower.pid()));
			assertThat(follower.stop(Duration.ofSeconds(30))).isZero();
			follower.awaitLine("REVOKED", BusyMachine.MARGIN);
		}
		finally {
			observer.close();
		}
	}

	private static CandidateProcess awaitLeader(CandidateProcess first, CandidateProcess second) {
		return await().atMost(START_UP)
			.until(() -> first.printed("GRANTED") ? first : (second.printed("GRANTED") ? second : null),
					(leader) -> leader != null);
	}

	private static boolean holds(QueuedLockNode node, long pid) {
		return node.holding() && node.holder() != null && node.holder().pid() == pid;
	}

}
