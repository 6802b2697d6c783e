package dev.zklock.faults;

import java.util.List;
import java.util.Optional;

import dev.zklock.LockType;

/**
 * One hold of a lock as a worker thread recorded it: from its {@code ACQUIRED} event to
 * the events of its critical section (read, stall, validity samples before and after the
 * write, write).
 * <p>
 * Every {@code true} sample claims that the lock was held from the acquisition up to the
 * sample. The hold's claim is the union of those: from the acquisition to its last
 * {@code true} sample, whatever later samples saw. On the store's clock the hold claims
 * less than that, and never more: from the stamp of {@code ACQUIRED} (the acquisition
 * happened before) to the {@link HistoryEvent#observedAfter() time before} that sample
 * (which was taken after).
 *
 * @param thread the holding thread
 * @param key the lock key
 * @param type the lock's type
 * @param permits the permits of a semaphore, {@code 1} for other types
 * @param token the fencing token of the hold
 * @param requestedAfter the store's stamp of the thread's event before the acquisition
 * ({@code 0} if none): the thread asked for the lock after it, and its token was given
 * after it
 * @param acquiredAt the store's stamp of the acquisition, in microseconds
 * @param events the events of the critical section, in order
 */
record Hold(String thread, String key, LockType type, int permits, long token, long requestedAfter, long acquiredAt,
		List<HistoryEvent> events) {

	/**
	 * Whether a sample of the holder saw the lock valid: then the hold claims that it
	 * held the lock, also if a later sample saw it lost.
	 * @return whether the hold claims validity
	 */
	boolean claimsValidity() {
		return this.events.stream().anyMatch(HistoryEvent::isValidSample);
	}

	/**
	 * The end of the interval over which the hold surely claims validity: the store's
	 * time before its last {@code isValid() == true} sample was taken.
	 * @return the store's time, in microseconds
	 */
	long claimedUntil() {
		return this.events.stream()
			.filter(HistoryEvent::isValidSample)
			.mapToLong(HistoryEvent::observedAfter)
			.max()
			.orElseThrow(() -> new IllegalStateException("No valid sample in " + this));
	}

	/**
	 * Whether the hold's write reached the store and was accepted.
	 * @return whether an accepted write belongs to the hold
	 */
	boolean wroteAccepted() {
		return this.events.stream()
			.anyMatch((event) -> event.type() == HistoryEvent.Type.WRITE && event.detail().endsWith(" ACCEPTED"));
	}

	/**
	 * Whether the hold did its work after a time: for a holder that writes, the store
	 * accepted its write; for a reader or a semaphore's holder, it saw its lock valid.
	 * @param time the time, on the store's clock
	 * @return whether it did
	 */
	boolean completedAfter(long time) {
		return this.events.stream()
			.filter((event) -> event.timeMicros() > time)
			.anyMatch((event) -> WorkerKind.writes(this.type)
					? event.type() == HistoryEvent.Type.WRITE && event.detail().endsWith(" ACCEPTED")
					: event.isValidSample());
	}

	/**
	 * Whether the hold and another of the same key exclude each other: unless both are
	 * readers or holders of a semaphore's permits, which share the key.
	 * @param other another hold of the key
	 * @return whether they may not overlap
	 */
	boolean excludes(Hold other) {
		return !(shares() && other.shares());
	}

	/**
	 * Whether the hold may share its key with others: a reader or a semaphore's holder.
	 */
	private boolean shares() {
		return this.type == LockType.READ || this.type == LockType.SEMAPHORE;
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

	/**
	 * Whether the claims of both holds surely cover a common instant: each began before
	 * the other ended. Both claims lie inside what the holders really claimed, so an
	 * overlap found here is real.
	 * @param other another hold claiming validity
	 * @return whether the claims overlap
	 */
	boolean overlapsClaimOf(Hold other) {
		return this.acquiredAt < other.claimedUntil() && other.acquiredAt < claimedUntil();
	}

	@Override
	public String toString() {
		return this.thread + " held " + this.type + ((this.type == LockType.SEMAPHORE) ? " " + this.permits : "") + " '"
				+ this.key + "' with token " + this.token + " from " + this.acquiredAt
				+ (claimsValidity() ? " claiming validity until " + claimedUntil() : "");
	}

}
