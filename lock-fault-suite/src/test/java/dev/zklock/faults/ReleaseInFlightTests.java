package dev.zklock.faults;

import java.time.Duration;
import java.util.List;

import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

import static org.awaitility.Awaitility.await;

/**
 * A partition that cuts a worker off as it releases a lock: once it heals, no contender
 * waits for the lock longer than its wait time and the session timeout.
 */
class ReleaseInFlightTests extends NetworkFaultRunTests {

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

}
