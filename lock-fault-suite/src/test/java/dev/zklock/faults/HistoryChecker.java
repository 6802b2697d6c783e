package dev.zklock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Predicate;

import dev.zklock.LockType;

/**
 * Checks a fault run against the promises of the starter and of fencing:
 * <ol>
 * <li>no two holds of a key by different threads both claim validity at the same time,
 * unless both are readers or both hold a semaphore's permits (a hold claims validity from
 * its acquisition to its last {@code isValid() == true} sample; see {@link Hold});
 * <li>no more holds of a semaphore claim validity at the same time than it has permits;
 * <li>a hold asked for after another hold of its key was acquired has a greater token,
 * unless both are readers: every hold gets a token greater than every token given before
 * for its key, and readers, who hold together, are ordered against the writers before and
 * after them, not against each other;
 * <li>the store accepted no write whose token was lower than the highest it had seen for
 * the key (in accepted writes and in reads under a lock), and rejected only such writes;
 * <li>no accepted update was lost: each key's final value is the number of increments the
 * store accepted for it;
 * <li>every thread of every surviving worker made a hold that did its work (an accepted
 * write; for a reader or a semaphore's holder, a valid sample) once the faults cleared,
 * and was still recording shortly before the run ended; of the candidates of leader
 * workers, which hold the election's lock one at a time (a term is a hold, see
 * {@link LeaderTermWriter}), one did.
 * </ol>
 * Two leaders whose terms claim validity at once break the first rule, a term whose token
 * is not greater than an earlier term's the third, and an accepted write of a deposed
 * leader the fourth.
 * <p>
 * Every time compared is the {@link FencedStore}'s: the stamps it put on the events as it
 * received them, and its times just before validity samples. No worker's clock is read.
 */
final class HistoryChecker {

	private final Duration maxSilence;

	/**
	 * Creates a checker.
	 * @param maxSilence how long before the end of the run a surviving thread may have
	 * last recorded something without being considered stuck
	 */
	HistoryChecker(Duration maxSilence) {
		this.maxSilence = maxSilence;
	}

	List<Violation> check(RunRecord run) {
		List<Violation> violations = new ArrayList<>();
		checkExclusion(run.histories(), violations);
		checkTokenOrder(run.histories(), violations);
		checkFencing(run.storeLog(), violations);
		checkNoLostUpdate(run.storeLog(), run.finalValues(), violations);
		checkProgress(run, violations);
		return violations;
	}

	/**
	 * Goes over each key's claims in the order they began: the claims still active when
	 * one begins all overlap it at that instant, so a holder excluded by one of them, or
	 * a semaphore's holder beyond its permits, shows there.
	 */
	private void checkExclusion(List<History> histories, List<Violation> violations) {
		for (List<Hold> claims : byKey(histories, Hold::claimsValidity).values()) {
			claims.sort(Comparator.comparingLong(Hold::acquiredAt));
			Map<Hold, List<Hold>> overlapping = new LinkedHashMap<>();
			List<Hold> active = new ArrayList<>();
			for (Hold claim : claims) {
				active.removeIf((earlier) -> earlier.claimedUntil() <= claim.acquiredAt());
				List<Hold> together = new ArrayList<>(List.of(claim));
				for (Hold earlier : active) {
					if (!earlier.thread().equals(claim.thread()) && earlier.overlapsClaimOf(claim)) {
						together.add(earlier);
						if (earlier.excludes(claim)) {
							overlapping.computeIfAbsent(earlier, (hold) -> new ArrayList<>()).add(claim);
						}
					}
				}
				if (claim.type() == LockType.SEMAPHORE && together.size() > claim.permits()) {
					violations.add(new Violation(Violation.Rule.PERMITS, together.size()
							+ " holds claimed validity at once at " + claim.acquiredAt() + ": " + together));
				}
				active.add(claim);
			}
			overlapping.forEach((earlier, later) -> violations
				.add(new Violation(Violation.Rule.MUTUAL_EXCLUSION, earlier + ", while " + later.size()
						+ " later holds by other threads claimed it too, first " + later.get(0))));
		}
	}

	/**
	 * Goes over each key's holds in the order they were asked for, beside those acquired
	 * before: the greatest token given before a hold was asked for, by any holder or (for
	 * a reader) by one that is not a reader, must be lower than the hold's.
	 */
	private void checkTokenOrder(List<History> histories, List<Violation> violations) {
		for (List<Hold> holds : byKey(histories, (hold) -> true).values()) {
			List<Hold> acquired = new ArrayList<>(holds);
			acquired.sort(Comparator.comparingLong(Hold::acquiredAt));
			holds.sort(Comparator.comparingLong(Hold::requestedAfter));
			Hold greatest = null;
			Hold greatestNotRead = null;
			int given = 0;
			for (Hold hold : holds) {
				while (given < acquired.size() && acquired.get(given).acquiredAt() < hold.requestedAfter()) {
					Hold earlier = acquired.get(given++);
					greatest = greater(greatest, earlier);
					greatestNotRead = (earlier.type() != LockType.READ) ? greater(greatestNotRead, earlier)
							: greatestNotRead;
				}
				Hold before = (hold.type() == LockType.READ) ? greatestNotRead : greatest;
				if (before != null && before.token() >= hold.token()) {
					violations.add(new Violation(Violation.Rule.TOKEN_ORDER, hold + ", asked for after "
							+ hold.requestedAfter() + ", has a token no greater than that of " + before));
				}
			}
		}
	}

	private static Hold greater(Hold greatest, Hold hold) {
		return (greatest == null || hold.token() > greatest.token()) ? hold : greatest;
	}

	private static Map<String, List<Hold>> byKey(List<History> histories, Predicate<Hold> included) {
		Map<String, List<Hold>> byKey = new HashMap<>();
		histories.stream()
			.flatMap((history) -> history.holds().stream())
			.filter(included)
			.forEach((hold) -> byKey.computeIfAbsent(hold.key(), (key) -> new ArrayList<>()).add(hold));
		return byKey;
	}

	private void checkFencing(List<StoreEntry> storeLog, List<Violation> violations) {
		Map<String, Long> highestTokens = new HashMap<>();
		for (StoreEntry write : storeLog) {
			if (write.read()) {
				highestTokens.merge(write.key(), write.token(), Math::max);
				continue;
			}
			Long highest = highestTokens.get(write.key());
			boolean stale = highest != null && write.token() < highest;
			if (write.accepted() && stale) {
				violations.add(new Violation(Violation.Rule.FENCING, "the store accepted token " + write.token()
						+ " for '" + write.key() + "' after seeing token " + highest + ": " + write.format()));
			}
			if (!write.accepted() && !stale) {
				violations
					.add(new Violation(Violation.Rule.FENCING, "the store rejected token " + write.token() + " for '"
							+ write.key() + "', which was not stale (highest " + highest + "): " + write.format()));
			}
			if (write.accepted()) {
				highestTokens.merge(write.key(), write.token(), Math::max);
			}
		}
	}

	private void checkNoLostUpdate(List<StoreEntry> storeLog, Map<String, Long> finalValues,
			List<Violation> violations) {
		Map<String, Long> acceptedIncrements = new HashMap<>();
		storeLog.stream()
			.filter(StoreEntry::acceptedWrite)
			.forEach((write) -> acceptedIncrements.merge(write.key(), 1L, Long::sum));
		Set<String> keys = new TreeSet<>(acceptedIncrements.keySet());
		keys.addAll(finalValues.keySet());
		for (String key : keys) {
			long accepted = acceptedIncrements.getOrDefault(key, 0L);
			long value = finalValues.getOrDefault(key, 0L);
			if (accepted != value) {
				violations.add(new Violation(Violation.Rule.LOST_UPDATE, "'" + key + "' ends at " + value + " after "
						+ accepted + " accepted increments: " + (accepted - value) + " lost"));
			}
		}
	}

	private void checkProgress(RunRecord run, List<Violation> violations) {
		long silentBefore = run.endedAt() - this.maxSilence.toNanos() / 1_000;
		List<History> survivors = run.histories()
			.stream()
			.filter((history) -> run.survivors().contains(history.worker()))
			.toList();
		if (!RunWorkers.someCandidateProgressed(survivors, run.quietFrom())) {
			violations.add(new Violation(Violation.Rule.PROGRESS,
					"no candidate of the leader election led and did its work after the faults cleared at "
							+ run.quietFrom()));
		}
		for (History history : run.histories()) {
			if (!run.survivors().contains(history.worker())) {
				continue;
			}
			if (history.threads().isEmpty()) {
				violations.add(new Violation(Violation.Rule.PROGRESS, "worker " + history.worker() + " never started"));
			}
			for (String thread : history.threads()) {
				if (history.isCandidate(thread)) {
					continue;
				}
				if (!history.progressed(thread, run.quietFrom())) {
					violations.add(new Violation(Violation.Rule.PROGRESS,
							thread + " made no hold that did its work after the faults cleared at " + run.quietFrom()));
				}
				long last = history.eventsOf(thread)
					.stream()
					.mapToLong(HistoryEvent::timeMicros)
					.filter((time) -> time <= run.endedAt())
					.max()
					.orElse(0);
				if (last < silentBefore) {
					violations.add(new Violation(Violation.Rule.PROGRESS, thread + " was stuck: its last event at "
							+ last + " is more than " + this.maxSilence + " before the end at " + run.endedAt()));
				}
			}
		}
	}

}
