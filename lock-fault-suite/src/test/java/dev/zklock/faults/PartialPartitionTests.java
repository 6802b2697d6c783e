package dev.zklock.faults;

import java.time.Duration;
import java.util.List;

import dev.zklock.testsupport.process.ZooKeeperEnsemble;
import dev.zklock.testsupport.process.ZooKeeperServerProcess;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Partitions that leave part of the ensemble reachable: a worker cut off from the server
 * it talks to moves to another, and a server cut off from the other two grants its
 * clients no lock.
 */
class PartialPartitionTests extends NetworkFaultRunTests {

	@Test
	@RunOptions(sessionTimeoutMillis = 6000)
	void clientCutOffFromItsServerMovesToAnotherWithinItsSession() throws Exception {
		WorkerProcess victim = this.run.workers().get(0);
		LinkProxy link = this.run.links().inUse(victim);
		long cutAt = this.run.now();
		link.cut();
		HistoryEvent suspended = this.run.awaitEvent(victim, (event) -> isConnection(event, "SUSPENDED", cutAt),
				TIMEOUT);
		HistoryEvent reconnected = this.run.awaitEvent(victim,
				(event) -> isConnection(event, "RECONNECTED", cutAt) || isConnection(event, "LOST", cutAt), TIMEOUT);
		LinkProxy moved = this.run.links().inUse(victim);
		HistoryEvent written = this.run.awaitEvent(victim,
				(event) -> isAcceptedWriteAfter(event, reconnected.timeMicros()), TIMEOUT);
		link.heal();
		this.run.faultsCleared();
		List<Violation> violations = this.run.quietThenCheck(QUIET);
		this.run.report("%s cut: suspended after %d ms, %s over %s %d ms later, wrote under a lock %d ms after the cut",
				link, millis(cutAt, suspended.timeMicros()), reconnected.detail(), moved,
				millis(suspended.timeMicros(), reconnected.timeMicros()), millis(cutAt, written.timeMicros()));
		SoftAssertions.assertSoftly((softly) -> {
			softly.assertThat(moved).as("link in use after the cut").isNotSameAs(link);
			softly.assertThat(reconnected.detail())
				.as("connection after the cut")
				.isEqualTo("RECONNECTED " + sessionOf(suspended));
			softly.assertThat(violations).isEmpty();
		});
	}

	@Test
	void serverCutOffFromTheOtherTwoGrantsItsClientsNoLock() throws Exception {
		ZooKeeperEnsemble ensemble = this.run.ensemble();
		// A worker connected to a follower, if one is, and that follower
		List<ZooKeeperServerProcess> followers = ensemble.followers();
		WorkerProcess victim = this.run.workers()
			.stream()
			.filter((worker) -> followers.contains(this.run.links().serverInUse(worker)))
			.findFirst()
			.orElse(this.run.workers().get(0));
		boolean wasConnected = followers.contains(this.run.links().serverInUse(victim));
		ZooKeeperServerProcess isolated = wasConnected ? this.run.links().serverInUse(victim) : followers.get(0);
		HistoryEvent stalled = this.run.stallNextHolder(victim, STALL);
		long cutAt = this.run.now();
		// The victim keeps its link to the isolated server only
		for (ZooKeeperServerProcess server : ensemble.servers()) {
			if (server != isolated) {
				this.run.links().to(victim, server).cut();
			}
		}
		this.run.serverLinks().isolate(isolated);
		await().atMost(TIMEOUT).pollInterval(Duration.ofMillis(50)).until(() -> isolated.mode() == null);
		long stoppedServingAt = this.run.now();
		HistoryEvent suspended = this.run.awaitEvent(victim, (event) -> isConnection(event, "SUSPENDED", cutAt),
				TIMEOUT);
		HistoryEvent overtaking = this.run.awaitEvent(this.run.othersThan(victim),
				(event) -> isLaterWriteOf(event, stalled), TIMEOUT);
		long healedAt = this.run.now();
		long acquiredWhileCut = this.run.count(victim, (event) -> event.type() == HistoryEvent.Type.ACQUIRED,
				suspended.timeMicros(), healedAt);
		long othersWroteWhileCut = this.run.othersThan(victim)
			.stream()
			.mapToLong((worker) -> this.run.count(worker, (event) -> isAcceptedWriteAfter(event, 0),
					suspended.timeMicros(), healedAt))
			.sum();
		this.run.serverLinks().reconnect(isolated);
		this.run.links().heal(victim);
		victim.send("proceed");
		Duration rejoined = ensemble.awaitServing(TIMEOUT);
		HistoryEvent relocked = this.run.awaitEvent(victim, (event) -> isAcceptedWriteAfter(event, healedAt), TIMEOUT);
		this.run.faultsCleared();
		List<Violation> violations = this.run.quietThenCheck(QUIET);
		Hold stale = holdOf(victim, stalled);
		this.run.report(
				"%s, a follower, isolated with %s %s: it stopped serving after %d ms, %s was suspended after %d ms; "
						+ "'%s' written by %s with token %d > %d after %d ms; while cut, %s acquired %d locks and "
						+ "the others wrote %d times; healed after %d ms, serving again after %d ms, %s wrote under a "
						+ "lock %d ms after healing",
				isolated, victim.name(), wasConnected ? "connected to it" : "moved to it",
				millis(cutAt, stoppedServingAt), victim.name(), millis(cutAt, suspended.timeMicros()), stalled.key(),
				overtaking.thread(), overtaking.token(), stalled.token(), millis(cutAt, overtaking.timeMicros()),
				victim.name(), acquiredWhileCut, othersWroteWhileCut, millis(cutAt, healedAt), rejoined.toMillis(),
				victim.name(), millis(healedAt, relocked.timeMicros()));
		assertThat(acquiredWhileCut).as("acquisitions of the victim after its suspension").isZero();
		assertFencedOff(stale, violations);
	}

}
