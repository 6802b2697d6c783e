package dev.zklock.faults;

/**
 * A broken promise that the {@link HistoryChecker} found in a run.
 *
 * @param rule the promise broken
 * @param detail what happened, naming the threads, keys and tokens involved
 */
record Violation(Rule rule, String detail) {

	/**
	 * The promises the checker holds a run to.
	 */
	enum Rule {

		/**
		 * Two holds of a key by different threads both claimed validity at once, and not
		 * both as readers or as holders of a semaphore's permits.
		 */
		MUTUAL_EXCLUSION,

		/** More holds of a semaphore claimed validity at once than it has permits. */
		PERMITS,

		/**
		 * A hold asked for after another hold of its key was acquired got a token no
		 * greater than that hold's, and they were not both readers.
		 */
		TOKEN_ORDER,

		/** The store accepted a stale token, or rejected a token that was not stale. */
		FENCING,

		/**
		 * A key's final value differs from the number of increments the store accepted.
		 */
		LOST_UPDATE,

		/**
		 * A thread made no hold that did its work once faults cleared, or fell silent.
		 */
		PROGRESS

	}

	@Override
	public String toString() {
		return this.rule + ": " + this.detail;
	}

}
