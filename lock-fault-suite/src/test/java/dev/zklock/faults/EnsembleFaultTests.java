package dev.zklock.faults;

import java.time.Duration;

import dev.zklock.testsupport.process.ZooKeeperEnsemble;
import dev.zklock.testsupport.process.ZooKeeperServerProcess;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Faults of ZooKeeper itself, against an ensemble of three servers in their own JVMs:
 * three workers of two threads each increment two counters in the fenced store under
 * locks while servers are killed or the whole ensemble restarts, and after a quiet period
 * the checker goes over everything they and the store recorded.
 */
class EnsembleFaultTests extends FaultRunTests {

	EnsembleFaultTests() {
		super("ensemble-", 3);
	}

	/**
	 * The baseline of an ensemble: without faults, every thread progresses and the
	 * checker finds nothing.
	 */
	@Test
	void withoutFaultsEveryThreadProgressesAndNothingIsViolated() throws Exception {
		assertThat(this.run.quietThenCheck(QUIET_PERIOD)).isEmpty();
	}

	@Test
	void lockingContinuesAfterTheLeaderIsKilled() throws Exception {
		ZooKeeperEnsemble ensemble = this.run.ensemble();
		ZooKeeperServerProcess leader = ensemble.leader();
		leader.kill();
		Duration election = ensemble.awaitServing(Duration.ofSeconds(60));
		ZooKeeperServerProcess newLeader = ensemble.leader();
		this.run.report("killed leader %s; %s leads after %d ms", leader, newLeader, election.toMillis());
		assertThat(newLeader).isNotSameAs(leader);
		this.run.faultsCleared();
		assertThat(this.run.quietThenCheck(QUIET_PERIOD)).isEmpty();
	}

	@Test
	void lockingResumesWithoutRestartingTheWorkersWhenTheWholeEnsembleRestarts() throws Exception {
		ZooKeeperEnsemble ensemble = this.run.ensemble();
		long stoppedAt = System.nanoTime();
		ensemble.stop();
		Thread.sleep(FaultWorker.SESSION_TIMEOUT.plusSeconds(2).toMillis());
		ensemble.start();
		long restartedAt = System.nanoTime();
		Duration startup = ensemble.awaitServing(Duration.ofSeconds(60));
		this.run.report("ensemble stopped for %d ms (session timeout %d ms), serving again %d ms after the restart",
				(restartedAt - stoppedAt) / 1_000_000, FaultWorker.SESSION_TIMEOUT.toMillis(), startup.toMillis());
		this.run.faultsCleared();
		assertThat(this.run.quietThenCheck(QUIET_PERIOD)).isEmpty();
	}

}
