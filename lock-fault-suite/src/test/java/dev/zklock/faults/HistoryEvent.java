package dev.zklock.faults;

import java.time.Instant;

/**
 * One line of a worker's history: what one thread of a worker process did or saw, and
 * when (wall clock, microseconds since the epoch, comparable across the processes of one
 * machine).
 *
 * @param timeMicros when it happened, in microseconds since the epoch
 * @param thread the thread, named after its worker, such as {@code w1-t0}
 * @param type what happened
 * @param key the lock key, or {@code -} when none
 * @param token the fencing token of the hold, or {@code 0} when none
 * @param detail what the event carries: the value read or written and the store's answer,
 * the validity seen, the exception's simple class name
 */
record HistoryEvent(long timeMicros, String thread, Type type, String key, long token, String detail) {

	private static final String SEPARATOR = "\t";

	/**
	 * The kinds of events a worker records.
	 */
	enum Type {

		/** The worker's Spring context is up and its threads start locking. */
		STARTED,

		/** The lock was acquired; the token is the hold's fencing token. */
		ACQUIRED,

		/** The holder read the store; detail is the value. */
		READ,

		/** The holder was told to stall inside its critical section; detail is millis. */
		STALL,

		/** The holder wrote to the store; detail is {@code value ACCEPTED|REJECTED}. */
		WRITE,

		/**
		 * The holder asked {@code isValid()}; detail is {@code true} or {@code false}.
		 */
		VALID,

		/** The hold ended and the lock was released. */
		RELEASED,

		/**
		 * A holder that released its lock wrote what it read under it, once a later
		 * holder had written; detail is {@code value ACCEPTED|REJECTED}.
		 */
		LATE_WRITE,

		/** The iteration failed; detail is the exception's simple class name. */
		FAILED,

		/** The worker received a command from the test; detail is the command. */
		COMMAND,

		/** The thread finished cleanly after a {@code stop} command. */
		STOPPED

	}

	static long nowMicros() {
		Instant now = Instant.now();
		return now.getEpochSecond() * 1_000_000L + now.getNano() / 1_000;
	}

	static HistoryEvent parse(String line) {
		String[] fields = line.split(SEPARATOR, 6);
		if (fields.length != 6) {
			throw new IllegalArgumentException("Not a history line: '" + line + "'");
		}
		return new HistoryEvent(Long.parseLong(fields[0]), fields[1], Type.valueOf(fields[2]), fields[3],
				Long.parseLong(fields[4]), fields[5]);
	}

	String format() {
		return String.join(SEPARATOR, Long.toString(this.timeMicros), this.thread, this.type.name(), this.key,
				Long.toString(this.token), this.detail);
	}

}
