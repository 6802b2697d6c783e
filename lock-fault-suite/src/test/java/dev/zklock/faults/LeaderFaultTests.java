package dev.zklock.faults;

import java.time.Duration;
import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Three leader workers, candidates in one election that write the fenced store with their
 * term's token while they lead ({@link LeaderTermWriter}), against an ensemble of three
 * servers: the leader is killed, paused or cut off, another candidate leads with a
 * greater token, the deposed leader's writes are refused, and the checker finds no two
 * leaders claiming validity at once.
 */
class LeaderFaultTests extends NetworkFaultRunTests {

	@Test
	@RunOptions(workers = { WorkerKind.LEADER, WorkerKind.LEADER, WorkerKind.LEADER })
	void aKilledLeaderIsFollowedByAnotherWithAGreaterToken() throws Exception {
		WorkerProcess leader = leader();
		long token = lastTermOf(leader).token();
		long killedAt = this.run.now();
		this.run.kill(leader);
		this.run.faultsCleared();
		HistoryEvent next = this.run.awaitEvent(this.run.othersThan(leader), (event) -> isTermAfter(event, token),
				TIMEOUT);
		this.run.report("%s led with token %d %d ms after the kill of the leader", next.thread(), next.token(),
				millis(killedAt, next.timeMicros()));
		assertThat(this.run.quietThenCheck(QUIET)).isEmpty();
	}

	@Test
	@RunOptions(workers = { WorkerKind.LEADER, WorkerKind.LEADER, WorkerKind.LEADER })
	void aLeaderPausedPastItsSessionTimeoutFindsItsTermRevokedAndItsWriteRefused() throws Exception {
		WorkerProcess leader = leader();
		HistoryEvent stalled = this.run.stallNextHolder(leader, STALL);
		leader.pause();
		long pausedAt = this.run.now();
		HistoryEvent next = this.run.awaitEvent(this.run.othersThan(leader), (event) -> isLaterWriteOf(event, stalled),
				TIMEOUT);
		leader.resume();
		leader.send("proceed");
		HistoryEvent end = this.run.awaitEvent(leader, (event) -> endsHoldOf(event, stalled), TIMEOUT);
		this.run.faultsCleared();
		List<Violation> violations = this.run.quietThenCheck(QUIET);
		Hold deposed = holdOf(leader, stalled);
		this.run.report("paused leader followed by %s with token %d after %d ms; once resumed it saw %s, wrote %s",
				next.thread(), next.token(), millis(pausedAt, next.timeMicros()), lastSamples(deposed),
				deposed.lastOf(HistoryEvent.Type.WRITE).map(HistoryEvent::detail).orElse("nothing"));
		SoftAssertions.assertSoftly((softly) -> {
			softly.assertThat(end.type()).as("end of the term").isEqualTo(HistoryEvent.Type.RELEASED);
			softly.assertThat(lastSamples(deposed))
				.as("isValid() of the term before and after its last write")
				.containsExactly("false", "false");
			softly.assertThat(deposed.lastOf(HistoryEvent.Type.WRITE).map(HistoryEvent::detail).orElse("no write"))
				.as("the deposed leader's last write")
				.endsWith(" REJECTED");
			softly.assertThat(violations).isEmpty();
		});
	}

	/**
	 * A leader cut off from every server learns it within the session timeout, when its
	 * client is suspended (after two thirds of it), whatever the lost-lock policy says of
	 * locks: its term is revoked before ZooKeeper ends its session and lets another
	 * candidate lead.
	 */
	@Test
	@RunOptions(workers = { WorkerKind.LEADER, WorkerKind.LEADER, WorkerKind.LEADER },
			workerProperties = "distributed-lock.lost-lock.trigger=lost")
	void aLeaderCutOffIsRevokedWithinItsSessionTimeoutAndBeforeAnotherLeads() throws Exception {
		WorkerProcess leader = leader();
		HistoryEvent term = lastTermOf(leader);
		long cutAt = this.run.now();
		this.run.links().cutOff(leader);
		HistoryEvent revoked = this.run.awaitEvent(leader,
				(event) -> event.type() == HistoryEvent.Type.RELEASED && event.token() == term.token(), TIMEOUT);
		HistoryEvent next = this.run.awaitEvent(this.run.othersThan(leader),
				(event) -> isTermAfter(event, term.token()), TIMEOUT);
		long healedAt = this.run.now();
		this.run.links().heal(leader);
		this.run.faultsCleared();
		List<Violation> violations = this.run.quietThenCheck(QUIET);
		this.run.report(
				"leader cut off: its term ended after %d ms, %s led with token %d after %d ms; healed after %d ms",
				millis(cutAt, revoked.timeMicros()), next.thread(), next.token(), millis(cutAt, next.timeMicros()),
				millis(cutAt, healedAt));
		SoftAssertions.assertSoftly((softly) -> {
			softly.assertThat(Duration.ofMillis(millis(cutAt, revoked.timeMicros())))
				.as("time from the cut to the end of the term")
				.isLessThan(this.run.sessionTimeout());
			softly.assertThat(revoked.timeMicros())
				.as("end of the term, before the next")
				.isLessThan(next.timeMicros());
			softly.assertThat(violations).isEmpty();
		});
	}

	/** The worker that leads now, once one does. */
	private WorkerProcess leader() throws InterruptedException {
		HistoryEvent term = this.run.awaitEvent(this.run.workers(),
				(event) -> event.type() == HistoryEvent.Type.ACQUIRED && event.key().equals(LeaderTermWriter.ELECTION),
				TIMEOUT);
		return this.run.workers()
			.stream()
			.filter((worker) -> worker.history().leads())
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No worker leads, though " + term.thread() + " did"));
	}

	/** The {@code ACQUIRED} event of the worker's last term. */
	private static HistoryEvent lastTermOf(WorkerProcess worker) {
		List<HistoryEvent> terms = worker.history()
			.events()
			.stream()
			.filter((event) -> event.type() == HistoryEvent.Type.ACQUIRED)
			.toList();
		return terms.get(terms.size() - 1);
	}

	private static boolean isTermAfter(HistoryEvent event, long token) {
		return event.type() == HistoryEvent.Type.ACQUIRED && event.key().equals(LeaderTermWriter.ELECTION)
				&& event.token() > token;
	}

	/** The last two validity samples of a term: before and after its last write. */
	private static List<String> lastSamples(Hold term) {
		List<String> samples = samples(term);
		return samples.subList(Math.max(0, samples.size() - 2), samples.size());
	}

}
