package dev.zklock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.zklock.LockType;
import org.assertj.core.api.SoftAssertions;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Faults of the worker processes, against one standalone ZooKeeper server: three workers
 * of two threads each increment two counters in the fenced store under locks, a fault
 * hits one of them while it holds a lock, and after a quiet period the checker goes over
 * everything they and the store recorded.
 */
class ClientFaultTests extends FaultRunTests {

	/** Longer than the session timeout, with room for the others to take the lock. */
	private static final Duration PAST_SESSION_TIMEOUT = FaultWorker.SESSION_TIMEOUT.plusSeconds(4);

	ClientFaultTests() {
		super("client-", 1);
	}

	/**
	 * The baseline every fault is measured against: without faults, every thread
	 * progresses and the checker finds nothing.
	 */
	@Test
	void withoutFaultsEveryThreadProgressesAndNothingIsViolated() throws Exception {
		assertThat(this.run.quietThenCheck(QUIET_PERIOD)).isEmpty();
	}

	@Test
	void lockOfAKilledHolderPassesToTheOthersWhenItsSessionExpires() throws Exception {
		WorkerProcess victim = this.run.workers().get(0);
		HistoryEvent stalled = this.run.stallNextHolder(victim, Duration.ofMinutes(1));
		long killedAt = this.run.now();
		this.run.kill(victim);
		this.run.faultsCleared();
		HistoryEvent next = this.run.awaitEvent(this.run.othersThan(victim), (event) -> isLaterHoldOf(event, stalled),
				PAST_SESSION_TIMEOUT.plusSeconds(10));
		this.run.report("next hold of '%s' %d ms after the kill of its holder", stalled.key(),
				(next.timeMicros() - killedAt) / 1000);
		assertThat(this.run.quietThenCheck(QUIET_PERIOD)).isEmpty();
	}

	@Test
	void pausedHolderFindsItsLockInvalidAndItsWriteRejectedWhenItResumes() throws Exception {
		WorkerProcess victim = this.run.workers().get(0);
		// The pause starts during the stall and outlasts it: the holder writes as it
		// resumes
		HistoryEvent stalled = this.run.stallNextHolder(victim, Duration.ofSeconds(3));
		victim.pause();
		long pausedAt = System.nanoTime();
		HistoryEvent overtaking = this.run.awaitEvent(
				this.run.othersThan(victim), (event) -> isLaterHoldOf(event, stalled)
						&& event.type() == HistoryEvent.Type.WRITE && event.detail().endsWith(" ACCEPTED"),
				PAST_SESSION_TIMEOUT.plusSeconds(10));
		this.run.report("while %s was paused, %s wrote '%s' with token %d > %d", victim, overtaking.thread(),
				stalled.key(), overtaking.token(), stalled.token());
		Thread.sleep(Math.max(0, PAST_SESSION_TIMEOUT.toMillis() - (System.nanoTime() - pausedAt) / 1_000_000));
		victim.resume();
		this.run.faultsCleared();
		List<Violation> violations = this.run.quietThenCheck(QUIET_PERIOD);
		Hold resumed = holdOf(victim, stalled);
		this.run.report("resumed holder recorded %s", resumed.events());
		assertFencedOff(resumed, violations);
	}

	@Test
	@RunOptions(workers = { WorkerKind.READ_WRITE, WorkerKind.SEMAPHORE, WorkerKind.READ_WRITE, WorkerKind.SEMAPHORE })
	void pausedReaderOrWriterAndSemaphoreHolderFindTheirLocksInvalidWhenTheyResume() throws Exception {
		WorkerProcess readerWriter = this.run.workers().get(0);
		WorkerProcess semaphore = this.run.workers().get(1);
		HistoryEvent stalledReaderWriter = this.run.stallNextHolder(readerWriter, Duration.ofMinutes(1));
		readerWriter.pause();
		long pausedAt = System.nanoTime();
		HistoryEvent stalledPermit = this.run.stallNextHolder(semaphore, Duration.ofMinutes(1));
		semaphore.pause();
		// A writer of the other process writes the key once the paused holder's session
		// has ended, whether that holder reads or writes
		HistoryEvent overtaking = this.run.awaitEvent(this.run.workers().get(2),
				(event) -> isLaterWriteOf(event, stalledReaderWriter), PAST_SESSION_TIMEOUT.plusSeconds(10));
		this.run.report("while %s was paused, %s wrote '%s' with token %d > %d", readerWriter, overtaking.thread(),
				stalledReaderWriter.key(), overtaking.token(), stalledReaderWriter.token());
		Thread.sleep(Math.max(0, PAST_SESSION_TIMEOUT.toMillis() - (System.nanoTime() - pausedAt) / 1_000_000));
		readerWriter.resume();
		semaphore.resume();
		readerWriter.send("proceed");
		semaphore.send("proceed");
		this.run.awaitEvent(readerWriter, (event) -> endsHoldOf(event, stalledReaderWriter), Duration.ofSeconds(20));
		this.run.awaitEvent(semaphore, (event) -> endsHoldOf(event, stalledPermit), Duration.ofSeconds(20));
		this.run.faultsCleared();
		List<Violation> violations = this.run.quietThenCheck(QUIET_PERIOD);
		Hold resumedReaderWriter = holdOf(readerWriter, stalledReaderWriter);
		Hold resumedPermit = holdOf(semaphore, stalledPermit);
		this.run.report("resumed holders recorded %s and %s", resumedReaderWriter, resumedPermit);
		SoftAssertions.assertSoftly((softly) -> {
			softly.assertThat(samples(resumedReaderWriter))
				.as("isValid() as the resumed %s holder saw it", resumedReaderWriter.type())
				.containsExactly("false", "false");
			softly
				.assertThat(resumedReaderWriter.events()
					.stream()
					.filter((event) -> event.type() == HistoryEvent.Type.WRITE)
					.map(HistoryEvent::detail))
				.as("the resumed holder's writes, a writer's one refused, a reader's none")
				.hasSize((resumedReaderWriter.type() == LockType.WRITE) ? 1 : 0)
				.allMatch((write) -> write.endsWith(" REJECTED"));
			softly.assertThat(samples(resumedPermit))
				.as("isValid() as the resumed semaphore holder saw it")
				.containsExactly("false", "false");
			softly.assertThat(violations).isEmpty();
		});
	}

	@Test
	void holderWhoseSessionExpiresFindsItsLockInvalidAndItsWriteRejected() throws Exception {
		WorkerProcess victim = this.run.workers().get(0);
		HistoryEvent stalled = this.run.stallNextHolder(victim, PAST_SESSION_TIMEOUT);
		victim.send("expire-session");
		long expiredAt = this.run.now();
		HistoryEvent next = this.run.awaitEvent(this.run.othersThan(victim), (event) -> isLaterHoldOf(event, stalled),
				PAST_SESSION_TIMEOUT.plusSeconds(10));
		this.run.report("next hold of '%s' %d ms after the holder's session expired", stalled.key(),
				(next.timeMicros() - expiredAt) / 1000);
		this.run
			.awaitEvent(
					List.of(victim), (event) -> event.type() == HistoryEvent.Type.VALID
							&& event.token() == stalled.token() && event.key().equals(stalled.key()),
					Duration.ofSeconds(20));
		this.run.faultsCleared();
		List<Violation> violations = this.run.quietThenCheck(QUIET_PERIOD);
		Hold expired = holdOf(victim, stalled);
		this.run.report("holder whose session expired recorded %s", expired.events());
		assertFencedOff(expired, violations);
	}

	@Test
	void lateWritesOfHoldersThatReleasedAreRefusedOnceALaterHolderWrote() throws Exception {
		WorkerProcess writer = this.run.workers().get(0);
		List<HistoryEvent> lateWrites = new ArrayList<>();
		for (int i = 0; i < 5; i++) {
			writer.send("write-late");
			int before = lateWrites.size();
			lateWrites.add(this.run.awaitEvent(List.of(writer),
					(event) -> event.type() == HistoryEvent.Type.LATE_WRITE
							&& lateWrites.stream().noneMatch((earlier) -> earlier.timeMicros() == event.timeMicros()),
					Duration.ofSeconds(60)));
			assertThat(lateWrites).hasSize(before + 1);
		}
		long takenOverInTheSameProcess = lateWrites.stream()
			.filter((late) -> writer.history()
				.holds()
				.stream()
				.anyMatch((hold) -> hold.key().equals(late.key()) && hold.token() > late.token()
						&& (hold.token() >> 12) == (late.token() >> 12)))
			.count();
		this.run.report(
				"%d late writes, all refused: %s; %d of them after a thread of the same process took the "
						+ "lock over",
				lateWrites.size(), lateWrites.stream().allMatch((late) -> late.detail().endsWith(" REJECTED")),
				takenOverInTheSameProcess);
		assertThat(lateWrites).allSatisfy((late) -> assertThat(late.detail()).endsWith(" REJECTED"));
		this.run.faultsCleared();
		assertThat(this.run.quietThenCheck(QUIET_PERIOD)).isEmpty();
	}

}
