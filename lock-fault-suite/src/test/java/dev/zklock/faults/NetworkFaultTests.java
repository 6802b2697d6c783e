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
 * Faults of the network, against an ensemble of three servers: every worker reaches every
 * server through a link of its own, and the servers each other through links too (see
 * {@link FaultRun} and {@link ZooKeeperEnsemble}); a fault cuts, slows down or breaks
 * some of them. Three workers of two threads each increment two counters in the fenced
 * store under locks, and after a quiet period the checker goes over everything they and
 * the store recorded.
 */
class NetworkFaultTests extends FaultRunTests {

	/** Long enough for any fault here; the tests end stalls with {@code proceed}. */
	private static final Duration STALL = Duration.ofMinutes(1);

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final Duration QUIET = Duration.ofSeconds(6);

	NetworkFaultTests() {
		super("network-", 3);
	}

	@Test
	void holderCutOffPastItsSessionTimeoutIsFencedOffAndLocksAgainOnceHealed() throws Exception {
		WorkerProcess victim = this.run.workers().get(0);
		HistoryEvent stalled = this.run.stallNextHolder(victim, STALL);
		long cutAt = this.run.now();
		this.run.links().cutOff(victim);
		HistoryEvent suspended = this.run.awaitEvent(victim, (event) -> isConnection(event, "SUSPENDED", cutAt),
				TIMEOUT);
		HistoryEvent overtaking = this.run.awaitEvent(this.run.othersThan(victim),
				(event) -> isLaterWriteOf(event, stalled), TIMEOUT);
		long healedAt = this.run.now();
		this.run.links().heal(victim);
		victim.send("proceed");
		HistoryEvent lost = this.run.awaitEvent(victim, (event) -> isConnection(event, "LOST", cutAt), TIMEOUT);
		HistoryEvent end = this.run.awaitEvent(victim, (event) -> endsHoldOf(event, stalled), TIMEOUT);
		HistoryEvent relocked = this.run.awaitEvent(victim, (event) -> isAcceptedWriteAfter(event, healedAt), TIMEOUT);
		this.run.faultsCleared();
		List<Violation> violations = this.run.quietThenCheck(QUIET);
		Hold stale = holdOf(victim, stalled);
		this.run.report(
				"cut off for %d ms: suspended after %d ms, '%s' written by %s with token %d > %d after %d ms, "
						+ "session lost after %d ms; once healed, the stale holder saw %s, wrote %s, ended with %s, "
						+ "and the worker wrote again under a lock %d ms after healing",
				millis(cutAt, healedAt), millis(cutAt, suspended.timeMicros()), stalled.key(), overtaking.thread(),
				overtaking.token(), stalled.token(), millis(cutAt, overtaking.timeMicros()),
				millis(cutAt, lost.timeMicros()), samples(stale),
				stale.lastOf(HistoryEvent.Type.WRITE).map(HistoryEvent::detail).orElse("nothing"),
				end.type() + " " + end.detail(), millis(healedAt, relocked.timeMicros()));
		assertThat(end.detail()).isEqualTo("LockLostException");
		assertFencedOff(stale, violations);
	}

	@Test
	@RunOptions(sessionTimeoutMillis = 6000)
	void holderCutOffForLessThanItsSessionTimeoutLosesItsHoldsByDefault() throws Exception {
		ShortCut cut = cutOffUntilSuspendedThenHeal(this.run.workers().get(0));
		SoftAssertions.assertSoftly((softly) -> {
			softly.assertThat(cut.sessionAfter()).as("session after healing").isEqualTo(cut.sessionBefore());
			softly.assertThat(samples(cut.hold()))
				.as("isValid() before and after the write")
				.containsExactly("false", "false");
			softly.assertThat(cut.end().detail()).as("end of the hold").isEqualTo("LockLostException");
			softly.assertThat(cut.violations()).isEmpty();
		});
	}

	@Test
	@RunOptions(sessionTimeoutMillis = 6000, victimProperties = "distributed-lock.lost-lock.trigger=lost")
	void holderCutOffForLessThanItsSessionTimeoutKeepsItsHoldsWithTheLostTrigger() throws Exception {
		ShortCut cut = cutOffUntilSuspendedThenHeal(this.run.workers().get(0));
		SoftAssertions.assertSoftly((softly) -> {
			softly.assertThat(cut.sessionAfter()).as("session after healing").isEqualTo(cut.sessionBefore());
			softly.assertThat(samples(cut.hold()))
				.as("isValid() before and after the write")
				.containsExactly("true", "true");
			softly.assertThat(cut.hold().wroteAccepted()).as("write accepted").isTrue();
			softly.assertThat(cut.end().type()).as("end of the hold").isEqualTo(HistoryEvent.Type.RELEASED);
			softly.assertThat(cut.violations()).isEmpty();
		});
	}

	/**
	 * Cuts a worker off from the ensemble while one of its threads holds a lock, heals
	 * the links as soon as its client is suspended, well within the session, and lets the
	 * holder write once its client is connected again.
	 */
	private ShortCut cutOffUntilSuspendedThenHeal(WorkerProcess victim) throws Exception {
		HistoryEvent stalled = this.run.stallNextHolder(victim, STALL);
		long cutAt = this.run.now();
		this.run.links().cutOff(victim);
		HistoryEvent suspended = this.run.awaitEvent(victim, (event) -> isConnection(event, "SUSPENDED", cutAt),
				TIMEOUT);
		long healedAt = this.run.now();
		this.run.links().heal(victim);
		HistoryEvent reconnected = this.run.awaitEvent(victim,
				(event) -> isConnection(event, "RECONNECTED", healedAt) || isConnection(event, "LOST", healedAt),
				TIMEOUT);
		victim.send("proceed");
		HistoryEvent end = this.run.awaitEvent(victim, (event) -> endsHoldOf(event, stalled), TIMEOUT);
		this.run.faultsCleared();
		List<Violation> violations = this.run.quietThenCheck(QUIET);
		Hold hold = holdOf(victim, stalled);
		this.run.report(
				"session of %d ms; cut off for %d ms: suspended after %d ms, %s %d ms after healing; the holder "
						+ "saw %s, wrote %s and ended with %s",
				this.run.sessionTimeout().toMillis(), millis(cutAt, healedAt), millis(cutAt, suspended.timeMicros()),
				reconnected.detail(), millis(healedAt, reconnected.timeMicros()), samples(hold),
				hold.lastOf(HistoryEvent.Type.WRITE).map(HistoryEvent::detail).orElse("nothing"),
				end.type() + " " + end.detail());
		return new ShortCut(hold, end, sessionOf(suspended), sessionOf(reconnected), violations);
	}

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

	@Test
	void latencyAndRandomResetsOnAHoldersLinks() throws Exception {
		WorkerProcess victim = this.run.workers().get(0);
		List<LinkProxy> links = this.run.links().of(victim);
		// 200 ms more per round trip: well within every timeout of the client
		long slowFrom = this.run.now();
		links.forEach((link) -> link.delay(Duration.ofMillis(100)));
		this.run.awaitEvent(victim, (event) -> isAcceptedWriteAfter(event, slowFrom), TIMEOUT);
		Thread.sleep(5000);
		Phase slow = phase(victim, slowFrom);
		// 2 s more per round trip: above the time the client gives a server to accept a
		// connection (the session timeout over the number of servers, 1.3 s), below the
		// time it waits for an answer on an established one (two thirds of the session
		// timeout, 2.7 s), and at the wait time of the locks
		long slowerFrom = this.run.now();
		links.forEach((link) -> link.delay(Duration.ofSeconds(1)));
		Thread.sleep(8000);
		Phase slower = phase(victim, slowerFrom);
		// Connections reset at random: 2% of the chunks forwarded, and of new connections
		links.forEach((link) -> link.delay(Duration.ZERO));
		long resetsFrom = this.run.now();
		links.forEach((link) -> link.dropAtRandom(0.02));
		Thread.sleep(8000);
		Phase resets = phase(victim, resetsFrom);
		long drops = links.stream().mapToLong(LinkProxy::drops).sum();
		long healedAt = this.run.now();
		this.run.links().heal(victim);
		HistoryEvent relocked = this.run.awaitEvent(victim, (event) -> isAcceptedWriteAfter(event, healedAt), TIMEOUT);
		this.run.faultsCleared();
		List<Violation> violations = this.run.quietThenCheck(QUIET);
		this.run.report("200 ms more per round trip: %s", slow);
		this.run.report("2 s more per round trip: %s", slower);
		this.run.report("%d connections reset at random: %s", drops, resets);
		this.run.report("healed: %s wrote under a lock %d ms later", victim, millis(healedAt, relocked.timeMicros()));
		SoftAssertions.assertSoftly((softly) -> {
			softly.assertThat(slow.acceptedWrites()).as("writes of the victim with 200 ms more").isPositive();
			softly.assertThat(slower.othersAcceptedWrites()).as("writes of the others with 2 s more").isPositive();
			softly.assertThat(resets.othersAcceptedWrites()).as("writes of the others with resets").isPositive();
			softly.assertThat(drops).as("connections reset").isPositive();
			softly.assertThat(violations).isEmpty();
		});
	}

	/**
	 * What the victim and the others did from a time on.
	 */
	private Phase phase(WorkerProcess victim, long from) {
		long to = this.run.now();
		History history = victim.history();
		List<HistoryEvent> events = history.events()
			.stream()
			.filter((event) -> event.timeMicros() >= from && event.timeMicros() <= to)
			.toList();
		return new Phase(millis(from, to), events.stream().filter((event) -> isAcceptedWriteAfter(event, 0)).count(),
				events.stream()
					.filter((event) -> event.type() == HistoryEvent.Type.FAILED)
					.map(HistoryEvent::detail)
					.distinct()
					.toList(),
				events.stream()
					.filter((event) -> event.type() == HistoryEvent.Type.CONNECTION)
					.map((event) -> event.detail().substring(0, event.detail().indexOf(' ')))
					.toList(),
				this.run.othersThan(victim)
					.stream()
					.mapToLong((worker) -> this.run.count(worker, (event) -> isAcceptedWriteAfter(event, 0), from, to))
					.sum());
	}

	@Test
	@RunOptions(victimProperties = "distributed-lock.hand-off.enabled=false")
	void partitionHealingWhileAReleaseIsInFlightBlocksNoContenderPastItsWaitAndTheSessionTimeout() throws Exception {
		WorkerProcess victim = this.run.workers().get(0);
		Duration bound = this.run.waitTime().plus(this.run.sessionTimeout());
		SoftAssertions softly = new SoftAssertions();
		// Healed before the client notices (the deletion goes through), then after the
		// session timeout (ZooKeeper ends the session)
		for (Duration cut : List.of(Duration.ofSeconds(1), this.run.sessionTimeout().plusSeconds(2))) {
			HistoryEvent stalled = this.run.stallNextHolder(victim, STALL);
			long heldBefore = heldBytes(victim);
			long cutAt = this.run.now();
			this.run.links().cutOff(victim);
			victim.send("proceed");
			HistoryEvent released = this.run.awaitEvent(victim, (event) -> endsHoldOf(event, stalled), TIMEOUT);
			await().atMost(TIMEOUT).until(() -> heldBytes(victim) > heldBefore);
			long heldBytes = heldBytes(victim) - heldBefore;
			Thread.sleep(Math.max(0, cut.toMillis() - millis(cutAt, this.run.now())));
			long healedAt = this.run.now();
			this.run.links().heal(victim);
			HistoryEvent next = this.run.awaitEvent(this.run.othersThan(victim),
					(event) -> event.type() == HistoryEvent.Type.ACQUIRED && isLaterHoldOf(event, stalled),
					bound.plus(TIMEOUT));
			HistoryEvent relocked = this.run.awaitEvent(victim, (event) -> isAcceptedWriteAfter(event, healedAt),
					TIMEOUT);
			this.run.report(
					"cut for %d ms as '%s' (token %d) was released (%s, %d bytes held back): %s took it with token "
							+ "%d %d ms after the release (bound %d ms); %s wrote under a lock %d ms after healing",
					millis(cutAt, healedAt), stalled.key(), stalled.token(), released.type(), heldBytes, next.thread(),
					next.token(), millis(released.timeMicros(), next.timeMicros()), bound.toMillis(), victim,
					millis(healedAt, relocked.timeMicros()));
			softly.assertThat(released.type()).as("end of the hold").isEqualTo(HistoryEvent.Type.RELEASED);
			softly.assertThat(millis(released.timeMicros(), next.timeMicros()))
				.as("time to the next acquisition after a cut of %s", cut)
				.isLessThanOrEqualTo(bound.toMillis());
		}
		this.run.faultsCleared();
		softly.assertThat(this.run.quietThenCheck(QUIET)).isEmpty();
		softly.assertAll();
	}

	private long heldBytes(WorkerProcess worker) {
		return this.run.links().of(worker).stream().mapToLong(LinkProxy::heldBytes).sum();
	}

	private record ShortCut(Hold hold, HistoryEvent end, String sessionBefore, String sessionAfter,
			List<Violation> violations) {

	}

	/**
	 * What a worker did during a phase of a fault, and how many writes the others made.
	 */
	private record Phase(long millis, long acceptedWrites, List<String> failures, List<String> connectionStates,
			long othersAcceptedWrites) {

		@Override
		public String toString() {
			return "in " + this.millis + " ms the victim wrote " + this.acceptedWrites + " times under a lock, failed "
					+ "with " + this.failures + ", saw its connection " + this.connectionStates + "; the others wrote "
					+ this.othersAcceptedWrites + " times";
		}

	}

}
