package dev.zklock.faults;

import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * Everything a fault run left behind for the {@link HistoryChecker}.
 *
 * @param histories the history of every worker, dead or alive
 * @param storeLog the fenced store's log of the writes and the reads under a lock it
 * decided, in order
 * @param finalValues the store's value of every key at the end
 * @param quietFrom when the faults had cleared, on the store's clock, in microseconds:
 * from then on every surviving thread must make progress
 * @param endedAt when the run ended (before the workers were told to stop), on the
 * store's clock
 * @param survivors the names of the workers that must make progress (every worker that
 * was not killed)
 */
record RunRecord(List<History> histories, List<StoreEntry> storeLog, Map<String, Long> finalValues, long quietFrom,
		long endedAt, Set<String> survivors) {

	/**
	 * The holds that every worker recorded, those of killed workers included.
	 * @return the number of holds
	 */
	long holdCount() {
		return this.histories.stream().mapToLong((history) -> history.holds().size()).sum();
	}

	/**
	 * The writes that the store accepted.
	 * @return the number of accepted writes
	 */
	long acceptedWrites() {
		return this.storeLog.stream().filter(StoreEntry::acceptedWrite).count();
	}

	/**
	 * The writes that the store refused.
	 * @return the number of refused writes
	 */
	long refusedWrites() {
		return this.storeLog.stream().filter(StoreEntry::refusedWrite).count();
	}

}
