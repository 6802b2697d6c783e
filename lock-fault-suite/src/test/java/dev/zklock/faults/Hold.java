package dev.zklock.faults;

import java.util.List;
import java.util.Optional;

/**
 * One hold of a lock as a worker thread recorded it: from its {@code ACQUIRED} event to
 * the events of its critical section (read, stall, write, validity checks).
 *
 * @param thread the holding thread
 * @param key the lock key
 * @param token the fencing token of the hold
 * @param acquiredAt when the holder recorded the acquisition, in epoch microseconds
 * @param events the events of the critical section, in order
 */
record Hold(String thread, String key, long token, long acquiredAt, List<HistoryEvent> events) {

	/**
	 * Whether the holder's last {@code isValid()} observation was {@code true}: only then
	 * does the hold claim that it held the lock.
	 * @return whether the hold claims validity
	 */
	boolean claimsValidity() {
		return lastOf(HistoryEvent.Type.VALID).map((event) -> event.detail().equals("true")).orElse(false);
	}

	/**
	 * The end of the interval over which the hold claims validity: its last
	 * {@code isValid() == true} observation.
	 * @return the time of the last valid observation, in epoch microseconds
	 */
	long claimedUntil() {
		return lastOf(HistoryEvent.Type.VALID).orElseThrow().timeMicros();
	}

	/**
	 * Whether the hold's write reached the store and was accepted.
	 * @return whether an accepted write belongs to the hold
	 */
	boolean wroteAccepted() {
		return this.events.stream()
			.anyMatch((event) -> event.type() == HistoryEvent.Type.WRITE && event.detail().endsWith(" ACCEPTED"));
	}

	Optional<HistoryEvent> lastOf(HistoryEvent.Type type) {
		HistoryEvent last = null;
		for (HistoryEvent event : this.events) {
			if (event.type() == type) {
				last = event;
			}
		}
		return Optional.ofNullable(last);
	}

	boolean overlapsClaimOf(Hold other) {
		return this.acquiredAt <= other.claimedUntil() && other.acquiredAt <= claimedUntil();
	}

	@Override
	public String toString() {
		return this.thread + " held '" + this.key + "' with token " + this.token + " from " + this.acquiredAt
				+ (claimsValidity() ? " claiming validity until " + claimedUntil() : "");
	}

}
