package dev.zklock.faults;

import java.util.function.BooleanSupplier;

/**
 * Records a worker's events in the {@link FencedStore}, which stamps each with its own
 * clock as it receives it: every process's events are ordered by one clock, none of them
 * by a worker's. A thread records an event once it happened and goes on once the store
 * has stamped it, so each thread's events are stamped in the order they happened.
 */
final class HistoryRecorder {

	private final String worker;

	private final FencedStoreClient store;

	HistoryRecorder(String worker, FencedStoreClient store) {
		this.worker = worker;
		this.store = store;
	}

	/**
	 * Records an event of the current thread.
	 * @param type what happened
	 * @param key the lock key, or {@code -}
	 * @param token the fencing token, or {@code 0}
	 * @param detail what the event carries
	 */
	void record(HistoryEvent.Type type, String key, long token, String detail) {
		this.store.record(this.worker,
				new HistoryEvent(0, Thread.currentThread().getName(), type, key, token, detail, 0));
	}

	/**
	 * Takes a validity sample of a hold and records it with the store's time just before
	 * the sample: the sample happened between that time and the record's stamp.
	 * @param key the lock key
	 * @param token the hold's fencing token
	 * @param isValid asks whether the lock is held
	 * @return the sample
	 */
	boolean sample(String key, long token, BooleanSupplier isValid) {
		long before = this.store.now();
		boolean valid = isValid.getAsBoolean();
		this.store.record(this.worker, new HistoryEvent(0, Thread.currentThread().getName(), HistoryEvent.Type.VALID,
				key, token, Boolean.toString(valid), before));
		return valid;
	}

}
