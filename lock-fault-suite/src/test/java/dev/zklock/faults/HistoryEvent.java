package dev.zklock.faults;

/**
 * One line of a worker's history: what one thread of a worker process did or saw, and
 * when, on the one clock of the run: the {@link FencedStore}'s, which stamps each event
 * as it receives it from the worker.
 *
 * @param timeMicros the store's time when it received the event, in microseconds: the
 * event happened before
 * @param thread the thread, named after its worker, such as {@code w1-t0}
 * @param type what happened
 * @param key the lock key, or {@code -} when none
 * @param token the fencing token of the hold, or {@code 0} when none
 * @param detail what the event carries: the lock acquired, the value read or written and
 * the store's answer, the validity seen, the exception's simple class name
 * @param observedAfter for a sample ({@link Type#VALID}), the store's time just before
 * the sample was taken: the store had answered it before the worker asked; {@code 0} for
 * other events
 */
record HistoryEvent(long timeMicros, String thread, Type type, String key, long token, String detail,
		long observedAfter) {

	private static final String SEPARATOR = "\t";

	/**
	 * The kinds of events a worker records.
	 */
	enum Type {

		/** The worker's Spring context is up and its threads start locking. */
		STARTED,

		/**
		 * The lock was acquired; the token is the hold's fencing token, detail the lock's
		 * type ({@code EXCLUSIVE}, {@code READ}, {@code WRITE}, or {@code SEMAPHORE} and
		 * its permits, such as {@code SEMAPHORE 2}).
		 */
		ACQUIRED,

		/** The holder read the store; detail is the value. */
		READ,

		/** The holder was told to stall inside its critical section; detail is millis. */
		STALL,

		/** The holder wrote to the store; detail is {@code value ACCEPTED|REJECTED}. */
		WRITE,

		/**
		 * The holder asked {@code isValid()}, before and after each write; detail is
		 * {@code true} or {@code false}.
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

		/**
		 * The worker's connection to ZooKeeper changed state; detail is Curator's state
		 * and the session, such as {@code SUSPENDED 0x1000a2b3c4d0000}.
		 */
		CONNECTION,

		/** The thread finished cleanly after a {@code stop} command. */
		STOPPED

	}

	static HistoryEvent parse(String line) {
		String[] fields = line.split(SEPARATOR, 7);
		if (fields.length != 7) {
			throw new IllegalArgumentException("Not a history line: '" + line + "'");
		}
		return new HistoryEvent(Long.parseLong(fields[0]), fields[1], Type.valueOf(fields[2]), fields[3],
				Long.parseLong(fields[4]), fields[6], Long.parseLong(fields[5]));
	}

	/**
	 * The event as a line: the detail last, as it may contain anything but a line break.
	 * @return the line
	 */
	String format() {
		return String.join(SEPARATOR, Long.toString(this.timeMicros), this.thread, this.type.name(), this.key,
				Long.toString(this.token), Long.toString(this.observedAfter), this.detail);
	}

	/**
	 * The same event, stamped.
	 * @param stamp the store's time when it received the event
	 * @return the stamped event
	 */
	HistoryEvent at(long stamp) {
		return new HistoryEvent(stamp, this.thread, this.type, this.key, this.token, this.detail, this.observedAfter);
	}

	/**
	 * Whether the event is a {@code true} validity sample.
	 * @return whether the holder saw its lock valid
	 */
	boolean isValidSample() {
		return this.type == Type.VALID && this.detail.equals("true");
	}

}
