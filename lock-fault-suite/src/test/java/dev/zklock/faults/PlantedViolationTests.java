package dev.zklock.faults;

import java.time.Duration;
import java.util.List;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The checker against real runs with a violation planted in them, one per kind of
 * violation it knows: a checker that passed them would pass a broken library too. Against
 * one standalone server, through the links.
 */
class PlantedViolationTests extends FaultRunTests {

	private static final Duration TIMEOUT = Duration.ofSeconds(30);

	private static final Duration QUIET = Duration.ofSeconds(3);

	PlantedViolationTests() {
		super("planted-", 1);
	}

	@Test
	void workerThatSkipsTheLockBreaksMutualExclusionAndTokenOrder() throws Exception {
		assertThat(skipTheLockThreeTimesThenCheck()).contains(Violation.Rule.MUTUAL_EXCLUSION,
				Violation.Rule.TOKEN_ORDER);
	}

	@Test
	@RunOptions(workers = { WorkerKind.READ_WRITE, WorkerKind.READ_WRITE, WorkerKind.READ_WRITE })
	void writerThatSkipsTheWriteLockBreaksMutualExclusionAndTokenOrder() throws Exception {
		assertThat(skipTheLockThreeTimesThenCheck()).contains(Violation.Rule.MUTUAL_EXCLUSION,
				Violation.Rule.TOKEN_ORDER);
	}

	@Test
	@RunOptions(workers = { WorkerKind.SEMAPHORE, WorkerKind.SEMAPHORE })
	void semaphoreHolderThatSkipsTheSemaphoreWhileItsPermitsAreHeldBreaksThePermits() throws Exception {
		WorkerProcess first = this.run.workers().get(0);
		WorkerProcess second = this.run.workers().get(1);
		// Both permits held, by stalled holders, while a thread of the first worker skips
		this.run.stallNextHolder(first, Duration.ofMinutes(1));
		this.run.stallNextHolder(second, Duration.ofMinutes(1));
		skipTheLock(first, 1);
		first.send("proceed");
		second.send("proceed");
		this.run.faultsCleared();
		assertThat(rulesFound(this.run.quietThenCheck(QUIET))).contains(Violation.Rule.PERMITS);
	}

	@Test
	@RunOptions(storeAcceptsStaleTokens = true)
	void storeThatAcceptsStaleTokensBreaksFencingAndLosesUpdates() throws Exception {
		WorkerProcess writer = this.run.workers().get(0);
		for (int i = 0; i < 3; i++) {
			long sentAt = this.run.now();
			writer.send("write-late");
			this.run.awaitEvent(writer,
					(event) -> event.type() == HistoryEvent.Type.LATE_WRITE && event.timeMicros() > sentAt, TIMEOUT);
		}
		this.run.faultsCleared();
		assertThat(rulesFound(this.run.quietThenCheck(QUIET))).contains(Violation.Rule.FENCING,
				Violation.Rule.LOST_UPDATE);
	}

	@Test
	@RunOptions(victimProperties = { "fault-worker.ignores-loss=true", "distributed-lock.lost-lock.actions=" })
	void workerThatIgnoresTheLossOfItsLockBreaksMutualExclusion() throws Exception {
		WorkerProcess victim = this.run.workers().get(0);
		HistoryEvent stalled = this.run.stallNextHolder(victim, Duration.ofMinutes(1));
		this.run.links().cutOff(victim);
		this.run.awaitEvent(this.run.othersThan(victim), (event) -> isLaterWriteOf(event, stalled), TIMEOUT);
		this.run.links().heal(victim);
		victim.send("proceed");
		this.run.awaitEvent(victim, (event) -> endsHoldOf(event, stalled), TIMEOUT);
		this.run.faultsCleared();
		List<Violation> violations = this.run.quietThenCheck(QUIET);
		assertThat(samples(holdOf(victim, stalled))).containsExactly("true", "true");
		assertThat(rulesFound(violations)).contains(Violation.Rule.MUTUAL_EXCLUSION);
	}

	@Test
	void holderThatNeverReturnsStopsProgress() throws Exception {
		WorkerProcess victim = this.run.workers().get(0);
		this.run.stallNextHolder(victim, Duration.ofMinutes(10));
		this.run.faultsCleared();
		// Longer than the silence the checker allows a live thread
		assertThat(rulesFound(this.run.quietThenCheck(Duration.ofSeconds(8)))).contains(Violation.Rule.PROGRESS);
	}

	/**
	 * Has a thread of the first worker run its critical section without the lock (the
	 * most exclusive lock of the worker's kind) three times, and checks the run.
	 */
	private List<Violation.Rule> skipTheLockThreeTimesThenCheck() throws Exception {
		skipTheLock(this.run.workers().get(0), 3);
		this.run.faultsCleared();
		return rulesFound(this.run.quietThenCheck(QUIET));
	}

	/**
	 * Has a thread of a worker run its critical section without the lock a number of
	 * times, and waits until it did.
	 */
	private void skipTheLock(WorkerProcess skipper, int times) throws InterruptedException {
		for (int i = 0; i < times; i++) {
			long sentAt = this.run.now();
			skipper.send("skip-lock");
			this.run.awaitEvent(skipper, (event) -> event.type() == HistoryEvent.Type.RELEASED
					&& event.detail().equals("without the lock") && event.timeMicros() > sentAt, TIMEOUT);
		}
	}

	private List<Violation.Rule> rulesFound(List<Violation> violations) {
		List<Violation.Rule> rules = violations.stream().map(Violation::rule).distinct().toList();
		this.run.report("the checker found %s: %s", rules,
				violations.stream().limit(3).map(Violation::toString).toList());
		return rules;
	}

}
