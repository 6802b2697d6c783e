package dev.zklock.faults;

import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A worker cut off from every ZooKeeper server while one of its threads holds a lock:
 * past its session timeout the holder is fenced off and the worker locks again once
 * healed; within it, the holder keeps its holds only with the lost trigger.
 */
class HolderCutOffTests extends NetworkFaultRunTests {

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
	 * holder write once its client is connected again. The holder first waits a while for
	 * its lock to read as valid: a hold that was only uncertain is valid again one round
	 * trip after the reconnection, once ZooKeeper confirmed the session, not at the
	 * reconnection itself; one that was lost never is.
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
		victim.send("proceed-once-valid");
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

	private record ShortCut(Hold hold, HistoryEvent end, String sessionBefore, String sessionAfter,
			List<Violation> violations) {

	}

}
