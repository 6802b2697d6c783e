package dev.zklock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker on synthetic histories: it passes a correct run and catches each kind of
 * violation. Times are the store's, in microseconds from an arbitrary origin.
 */
class HistoryCheckerTests {

	private static final long END = 100_000_000;

	private static final long QUIET_FROM = END - 5_000_000;

	/** Within the allowed silence before the end: where holds of live threads go. */
	private static final long RECENT = END - 1_000_000;

	private final HistoryChecker checker = new HistoryChecker(Duration.ofSeconds(2));

	@Test
	void correctRunHasNoViolation() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 10, RECENT + 100, 1, true, true));
		History w2 = history("w2", started("w2-t0"), hold("w2-t0", "k", 11, RECENT + 300, 2, true, true));
		assertThat(check(List.of(w1, w2), List.of(accepted(10, 1), accepted(11, 2)), Map.of("k", 2L))).isEmpty();
	}

	@Test
	void overlappingHoldsThatBothClaimValidityBreakMutualExclusion() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 10, RECENT + 100, 1, true, true));
		History w2 = history("w2", started("w2-t0"), hold("w2-t0", "k", 11, RECENT + 110, 2, true, true));
		assertThat(rules(check(List.of(w1, w2), List.of(accepted(10, 1), accepted(11, 2)), Map.of("k", 2L))))
			.containsExactly(Violation.Rule.MUTUAL_EXCLUSION);
	}

	@Test
	void overlappingHoldsOfDifferentThreadsOfOneWorkerBreakMutualExclusion() {
		History w1 = history("w1", started("w1-t0"), started("w1-t1"),
				hold("w1-t0", "k", 10, RECENT + 100, 1, true, true),
				hold("w1-t1", "k", 11, RECENT + 110, 2, true, true));
		assertThat(rules(check(List.of(w1), List.of(accepted(10, 1), accepted(11, 2)), Map.of("k", 2L))))
			.containsExactly(Violation.Rule.MUTUAL_EXCLUSION);
	}

	@Test
	void overlappingHoldWhoseHolderSawItInvalidBreaksNothing() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 10, RECENT + 100, 1, false, false),
				hold("w1-t0", "k", 12, RECENT + 200, 2, true, true));
		History w2 = history("w2", started("w2-t0"), hold("w2-t0", "k", 11, RECENT + 110, 1, true, true));
		assertThat(check(List.of(w1, w2), List.of(accepted(11, 1), rejected(10, 1), accepted(12, 2)), Map.of("k", 2L)))
			.isEmpty();
	}

	@Test
	void holdThatSawItsLockValidBeforeItsWriteAndLostAfterItStillClaimedIt() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 10, RECENT + 100, 1, true, true, false));
		History w2 = history("w2", started("w2-t0"), hold("w2-t0", "k", 11, RECENT + 110, 2, true, true, true));
		assertThat(rules(check(List.of(w1, w2), List.of(accepted(10, 1), accepted(11, 2)), Map.of("k", 2L))))
			.containsExactly(Violation.Rule.MUTUAL_EXCLUSION);
	}

	@Test
	void claimEndsWhenTheStoreAnsweredBeforeTheSampleNotWhenTheSampleArrived() {
		long at = RECENT + 100;
		History w1 = history("w1", started("w1-t0"),
				event(at, "w1-t0", HistoryEvent.Type.ACQUIRED, "k", 10, "EXCLUSIVE"),
				event(at + 10, "w1-t0", HistoryEvent.Type.WRITE, "k", 10, "1 ACCEPTED"),
				sample(at + 40, "w1-t0", "k", 10, true, at + 20),
				event(at + 50, "w1-t0", HistoryEvent.Type.RELEASED, "k", 10, ""));
		// Acquired after the store answered w1's last sample, stamped before the sample:
		// the two may not have overlapped at all
		History w2 = history("w2", started("w2-t0"), hold("w2-t0", "k", 11, at + 30, 2, true, true));
		assertThat(check(List.of(w1, w2), List.of(accepted(10, 1), accepted(11, 2)), Map.of("k", 2L))).isEmpty();
		History w2Sooner = history("w2", started("w2-t0"), hold("w2-t0", "k", 11, at + 19, 2, true, true));
		assertThat(rules(check(List.of(w1, w2Sooner), List.of(accepted(10, 1), accepted(11, 2)), Map.of("k", 2L))))
			.containsExactly(Violation.Rule.MUTUAL_EXCLUSION);
	}

	@Test
	void overlappingHoldsOfDifferentKeysBreakNothing() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "a", 10, RECENT + 100, 1, true, true));
		History w2 = history("w2", started("w2-t0"), hold("w2-t0", "b", 11, RECENT + 110, 1, true, true));
		assertThat(check(List.of(w1, w2), List.of(write("a", 10, 1, true), write("b", 11, 1, true)),
				Map.of("a", 1L, "b", 1L)))
			.isEmpty();
	}

	@Test
	void acceptedStaleTokenBreaksFencing() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 11, RECENT + 100, 2, true, true));
		assertThat(rules(check(List.of(w1), List.of(accepted(11, 1), accepted(10, 2)), Map.of("k", 2L))))
			.containsExactly(Violation.Rule.FENCING);
	}

	@Test
	void rejectedCurrentTokenBreaksFencing() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 11, RECENT + 100, 1, true, true));
		assertThat(rules(check(List.of(w1), List.of(accepted(10, 1), rejected(11, 2)), Map.of("k", 1L))))
			.containsExactly(Violation.Rule.FENCING);
	}

	@Test
	void finalValueBelowTheAcceptedIncrementsIsALostUpdate() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 11, RECENT + 100, 1, true, true));
		assertThat(rules(check(List.of(w1), List.of(accepted(10, 1), accepted(11, 1)), Map.of("k", 1L))))
			.containsExactly(Violation.Rule.LOST_UPDATE);
	}

	@Test
	void threadWithoutAcceptedWriteAfterTheFaultsClearedMadeNoProgress() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 10, QUIET_FROM - 100, 1, true, true),
				event(END - 100, "w1-t0", HistoryEvent.Type.FAILED, "k", 0, "LockTimeoutException"));
		assertThat(rules(check(List.of(w1), List.of(accepted(10, 1)), Map.of("k", 1L))))
			.containsExactly(Violation.Rule.PROGRESS);
	}

	@Test
	void threadSilentLongBeforeTheEndWasStuck() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 10, QUIET_FROM + 100, 1, true, true),
				event(QUIET_FROM + 200, "w1-t0", HistoryEvent.Type.ACQUIRED, "k", 11, "EXCLUSIVE"));
		assertThat(rules(check(List.of(w1), List.of(accepted(10, 1)), Map.of("k", 1L))))
			.containsExactly(Violation.Rule.PROGRESS);
	}

	@Test
	void killedWorkerNeedsNoProgress() {
		History killed = history("w1", started("w1-t0"),
				event(1_000, "w1-t0", HistoryEvent.Type.ACQUIRED, "k", 9, "EXCLUSIVE"));
		History w2 = history("w2", started("w2-t0"), hold("w2-t0", "k", 10, RECENT + 100, 1, true, true));
		RunRecord run = new RunRecord(List.of(killed, w2), List.of(accepted(10, 1)), Map.of("k", 1L), QUIET_FROM, END,
				Set.of("w2"));
		assertThat(this.checker.check(run)).isEmpty();
	}

	@Test
	void eventsAfterTheEndOfTheRunDoNotHideAStuckThread() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 10, QUIET_FROM + 100, 1, true, true),
				event(QUIET_FROM + 200, "w1-t0", HistoryEvent.Type.STALL, "k", 10, "60000"),
				event(END + 1_000, "w1-t0", HistoryEvent.Type.WRITE, "k", 10, "2 ACCEPTED"));
		assertThat(rules(check(List.of(w1), List.of(accepted(10, 1), accepted(10, 2)), Map.of("k", 2L))))
			.containsExactly(Violation.Rule.PROGRESS);
	}

	@Test
	void readersThatOverlapBreakNothingAndNeedNotBeOrderedAmongThemselves() {
		// w2's reader asks after w1's reader was acquired and gets a lower token, as a
		// reader joining its process's older read node does
		History w1 = history("w1", started("w1-t0"), shared("w1-t0", "READ", 10, RECENT + 100),
				hold("w1-t0", "k", 12, RECENT + 300, 1, true, true));
		History w2 = history("w2", started("w2-t0"), failed("w2-t0", RECENT + 105),
				shared("w2-t0", "READ", 9, RECENT + 110));
		assertThat(check(List.of(w1, w2), List.of(accepted(12, 1)), Map.of("k", 1L))).isEmpty();
	}

	@Test
	void writerOverlappingAReaderBreaksMutualExclusion() {
		History w1 = history("w1", started("w1-t0"), shared("w1-t0", "READ", 10, RECENT + 100));
		History w2 = history("w2", started("w2-t0"),
				hold("w2-t0", "k", "WRITE", 11, RECENT + 110, 1, true, true, true));
		assertThat(rules(check(List.of(w1, w2), List.of(accepted(11, 1)), Map.of("k", 1L))))
			.containsExactly(Violation.Rule.MUTUAL_EXCLUSION);
	}

	@Test
	void writerOverlappingAWriterBreaksMutualExclusion() {
		History w1 = history("w1", started("w1-t0"),
				hold("w1-t0", "k", "WRITE", 10, RECENT + 100, 1, true, true, true));
		History w2 = history("w2", started("w2-t0"),
				hold("w2-t0", "k", "WRITE", 11, RECENT + 110, 2, true, true, true));
		assertThat(rules(check(List.of(w1, w2), List.of(accepted(10, 1), accepted(11, 2)), Map.of("k", 2L))))
			.containsExactly(Violation.Rule.MUTUAL_EXCLUSION);
	}

	@Test
	void readerAskingAfterAWriterWasAcquiredWithALowerTokenBreaksTokenOrder() {
		History w1 = history("w1", started("w1-t0"),
				hold("w1-t0", "k", "WRITE", 12, RECENT + 100, 1, true, true, true));
		History w2 = history("w2", started("w2-t0"), failed("w2-t0", RECENT + 160),
				shared("w2-t0", "READ", 11, RECENT + 200));
		assertThat(rules(check(List.of(w1, w2), List.of(accepted(12, 1)), Map.of("k", 1L))))
			.containsExactly(Violation.Rule.TOKEN_ORDER);
	}

	@Test
	void writerAskingAfterAReaderWasAcquiredWithALowerTokenBreaksTokenOrder() {
		History w1 = history("w1", started("w1-t0"), shared("w1-t0", "READ", 12, RECENT + 100));
		History w2 = history("w2", started("w2-t0"), failed("w2-t0", RECENT + 160),
				hold("w2-t0", "k", "WRITE", 11, RECENT + 200, 1, true, true, true));
		assertThat(rules(check(List.of(w1, w2), List.of(accepted(11, 1)), Map.of("k", 1L))))
			.containsExactly(Violation.Rule.TOKEN_ORDER);
	}

	@Test
	void holdAskingAfterAnotherWasAcquiredWithALowerTokenBreaksTokenOrder() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 12, RECENT + 100, 1, true, true));
		History w2 = history("w2", started("w2-t0"), failed("w2-t0", RECENT + 160),
				hold("w2-t0", "k", 11, RECENT + 200, 2, false, true),
				hold("w2-t0", "k", 13, RECENT + 300, 2, true, true));
		assertThat(rules(
				check(List.of(w1, w2), List.of(accepted(12, 1), rejected(11, 2), accepted(13, 2)), Map.of("k", 2L))))
			.containsExactly(Violation.Rule.TOKEN_ORDER);
	}

	@Test
	void semaphoreHoldersUpToItsPermitsAtOnceBreakNothing() {
		// Both asked before the other was acquired: their tokens need not follow the
		// order of their acquisitions
		History w1 = history("w1", started("w1-t0"), shared("w1-t0", "SEMAPHORE 2", 11, RECENT + 100),
				shared("w1-t0", "SEMAPHORE 2", 13, RECENT + 200));
		History w2 = history("w2", started("w2-t0"), shared("w2-t0", "SEMAPHORE 2", 10, RECENT + 110),
				shared("w2-t0", "SEMAPHORE 2", 12, RECENT + 210));
		assertThat(check(List.of(w1, w2), List.of(), Map.of())).isEmpty();
	}

	@Test
	void moreSemaphoreHoldersAtOnceThanItsPermitsBreakThePermits() {
		History w1 = history("w1", started("w1-t0"), shared("w1-t0", "SEMAPHORE 2", 10, RECENT + 100));
		History w2 = history("w2", started("w2-t0"), shared("w2-t0", "SEMAPHORE 2", 11, RECENT + 110));
		History w3 = history("w3", started("w3-t0"), shared("w3-t0", "SEMAPHORE 2", 12, RECENT + 120));
		assertThat(rules(check(List.of(w1, w2, w3), List.of(), Map.of()))).containsExactly(Violation.Rule.PERMITS);
		History w3Later = history("w3", started("w3-t0"), shared("w3-t0", "SEMAPHORE 2", 12, RECENT + 150));
		assertThat(check(List.of(w1, w2, w3Later), List.of(), Map.of())).isEmpty();
	}

	@Test
	void semaphoreHolderAskingAfterAnotherWasAcquiredWithALowerTokenBreaksTokenOrder() {
		History w1 = history("w1", started("w1-t0"), shared("w1-t0", "SEMAPHORE 2", 12, RECENT + 100));
		History w2 = history("w2", started("w2-t0"), failed("w2-t0", RECENT + 160),
				shared("w2-t0", "SEMAPHORE 2", 11, RECENT + 200));
		assertThat(rules(check(List.of(w1, w2), List.of(), Map.of()))).containsExactly(Violation.Rule.TOKEN_ORDER);
	}

	@Test
	void holdsAreReadBackFromTheirHistoryLines() {
		History w1 = history("w1", started("w1-t0"), hold("w1-t0", "k", 10, RECENT + 100, 1, true, true));
		List<HistoryEvent> reparsed = w1.events().stream().map(HistoryEvent::format).map(HistoryEvent::parse).toList();
		assertThat(reparsed).isEqualTo(w1.events());
		assertThat(w1.holds()).singleElement().satisfies((hold) -> {
			assertThat(hold.claimsValidity()).isTrue();
			assertThat(hold.wroteAccepted()).isTrue();
			assertThat(hold.claimedUntil()).isEqualTo(RECENT + 100 + 35);
		});
	}

	@Test
	void candidatesOfWhichOneLedAfterTheFaultsClearedMadeProgressThoughTheOthersWereSilent() {
		History w1 = history("w1", candidate("w1-leader"),
				hold("w1-leader", "leader", 10, QUIET_FROM - 1_000, 1, true, true));
		History w2 = history("w2", candidate("w2-leader"),
				hold("w2-leader", "leader", 11, RECENT + 100, 2, true, true));
		assertThat(check(List.of(w1, w2), List.of(write("leader", 10, 1, true), write("leader", 11, 2, true)),
				Map.of("leader", 2L)))
			.isEmpty();
	}

	@Test
	void aTermBegunBeforeTheFaultsClearedThatWritesAfterwardsIsProgress() {
		long begun = QUIET_FROM - 1_000;
		History w1 = history("w1", candidate("w1-leader"),
				event(begun, "w1-leader", HistoryEvent.Type.ACQUIRED, "leader", 10, "EXCLUSIVE"),
				event(RECENT, "w1-leader", HistoryEvent.Type.READ, "leader", 10, "0"),
				sample(RECENT + 20, "w1-leader", "leader", 10, true, RECENT + 15),
				event(RECENT + 30, "w1-leader", HistoryEvent.Type.WRITE, "leader", 10, "1 ACCEPTED"),
				sample(RECENT + 40, "w1-leader", "leader", 10, true, RECENT + 35));
		History w2 = history("w2", candidate("w2-leader"));
		assertThat(check(List.of(w1, w2), List.of(write("leader", 10, 1, true)), Map.of("leader", 1L))).isEmpty();
	}

	@Test
	void candidatesOfWhichNoneLedAfterTheFaultsClearedMadeNoProgress() {
		History w1 = history("w1", candidate("w1-leader"),
				hold("w1-leader", "leader", 10, QUIET_FROM - 1_000, 1, true, true));
		History w2 = history("w2", candidate("w2-leader"));
		assertThat(rules(check(List.of(w1, w2), List.of(write("leader", 10, 1, true)), Map.of("leader", 1L))))
			.containsExactly(Violation.Rule.PROGRESS);
	}

	@Test
	void twoLeadersWhoseTermsBothClaimValidityBreakMutualExclusion() {
		History w1 = history("w1", candidate("w1-leader"),
				hold("w1-leader", "leader", 10, RECENT + 100, 1, true, true));
		History w2 = history("w2", candidate("w2-leader"),
				hold("w2-leader", "leader", 11, RECENT + 110, 2, true, true));
		assertThat(rules(check(List.of(w1, w2), List.of(write("leader", 10, 1, true), write("leader", 11, 2, true)),
				Map.of("leader", 2L))))
			.containsExactly(Violation.Rule.MUTUAL_EXCLUSION);
	}

	private static HistoryEvent candidate(String thread) {
		return event(0, thread, HistoryEvent.Type.STARTED, "-", 0, LeaderTermWriter.CANDIDATE);
	}

	private List<Violation> check(List<History> histories, List<StoreEntry> storeLog, Map<String, Long> values) {
		Set<String> everyone = Set.copyOf(histories.stream().map(History::worker).toList());
		return this.checker.check(new RunRecord(histories, storeLog, values, QUIET_FROM, END, everyone));
	}

	private static List<Violation.Rule> rules(List<Violation> violations) {
		return violations.stream().map(Violation::rule).distinct().toList();
	}

	private static History history(String worker, Object... eventsOrHolds) {
		List<HistoryEvent> events = new ArrayList<>();
		for (Object item : eventsOrHolds) {
			if (item instanceof HistoryEvent event) {
				events.add(event);
			}
			else {
				((List<?>) item).forEach((event) -> events.add((HistoryEvent) event));
			}
		}
		return new History(worker, events);
	}

	private static HistoryEvent started(String thread) {
		return event(0, thread, HistoryEvent.Type.STARTED, "-", 0, "");
	}

	private static List<HistoryEvent> hold(String thread, String key, long token, long acquiredAt, long value,
			boolean accepted, boolean valid) {
		return hold(thread, key, token, acquiredAt, value, accepted, valid, valid);
	}

	/**
	 * A hold lasting 50 µs: acquired, read, sampled (the store answering 15 µs after the
	 * acquisition, the sample stamped at 20), written at 30, sampled again (35, 40),
	 * released.
	 */
	private static List<HistoryEvent> hold(String thread, String key, long token, long acquiredAt, long value,
			boolean accepted, boolean validBefore, boolean validAfter) {
		return hold(thread, key, "EXCLUSIVE", token, acquiredAt, value, accepted, validBefore, validAfter);
	}

	private static List<HistoryEvent> hold(String thread, String key, String lock, long token, long acquiredAt,
			long value, boolean accepted, boolean validBefore, boolean validAfter) {
		return List.of(event(acquiredAt, thread, HistoryEvent.Type.ACQUIRED, key, token, lock),
				event(acquiredAt + 10, thread, HistoryEvent.Type.READ, key, token, Long.toString(value - 1)),
				sample(acquiredAt + 20, thread, key, token, validBefore, acquiredAt + 15),
				event(acquiredAt + 30, thread, HistoryEvent.Type.WRITE, key, token,
						value + (accepted ? " ACCEPTED" : " REJECTED")),
				sample(acquiredAt + 40, thread, key, token, validAfter, acquiredAt + 35),
				event(acquiredAt + 50, thread, HistoryEvent.Type.RELEASED, key, token, ""));
	}

	/**
	 * A hold of {@code k} by a reader or a semaphore's holder lasting 50 µs, timed as
	 * {@link #hold(String, String, long, long, long, boolean, boolean, boolean)}, that
	 * sees its lock valid and writes nothing (a reader reads, a semaphore's holder does
	 * not).
	 */
	private static List<HistoryEvent> shared(String thread, String lock, long token, long acquiredAt) {
		List<HistoryEvent> events = new ArrayList<>();
		events.add(event(acquiredAt, thread, HistoryEvent.Type.ACQUIRED, "k", token, lock));
		if (lock.equals("READ")) {
			events.add(event(acquiredAt + 10, thread, HistoryEvent.Type.READ, "k", token, "0"));
		}
		events.add(sample(acquiredAt + 20, thread, "k", token, true, acquiredAt + 15));
		events.add(sample(acquiredAt + 40, thread, "k", token, true, acquiredAt + 35));
		events.add(event(acquiredAt + 50, thread, HistoryEvent.Type.RELEASED, "k", token, ""));
		return events;
	}

	/**
	 * A failed acquisition of {@code k}: the thread asks for its next lock after it.
	 */
	private static HistoryEvent failed(String thread, long time) {
		return event(time, thread, HistoryEvent.Type.FAILED, "k", 0, "LockTimeoutException");
	}

	private static HistoryEvent sample(long time, String thread, String key, long token, boolean valid,
			long observedAfter) {
		return new HistoryEvent(time, thread, HistoryEvent.Type.VALID, key, token, Boolean.toString(valid),
				observedAfter);
	}

	private static HistoryEvent event(long time, String thread, HistoryEvent.Type type, String key, long token,
			String detail) {
		return new HistoryEvent(time, thread, type, key, token, detail, 0);
	}

	private static StoreEntry accepted(long token, long value) {
		return write("k", token, value, true);
	}

	private static StoreEntry rejected(long token, long value) {
		return write("k", token, value, false);
	}

	private static StoreEntry write(String key, long token, long value, boolean accepted) {
		return StoreEntry.write(0, key, token, value, accepted);
	}

}
