package dev.zklock.faults;

import java.time.Duration;
import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

/**
 * A worker's links slowed down, then breaking its connections at random: the worker still
 * writes under a small delay, the others go on writing throughout, and once healed the
 * checker finds nothing.
 */
class SlowAndResettingLinkTests extends NetworkFaultRunTests {

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
