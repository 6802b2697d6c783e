package dev.zklock.faults;

/**
 * One request the fenced store decided, as the store logged it: a write, or a read under
 * a lock, which raises the key's fence to the reader's token as an accepted write does.
 *
 * @param timeMicros when the store decided, on the store's clock, in microseconds
 * @param key the key read or written
 * @param token the fencing token the caller carried
 * @param value the value read, or the value the writer asked to store
 * @param read whether the request was a read
 * @param accepted whether the store accepted the write; {@code true} for a read, which
 * the store always answers
 */
record StoreEntry(long timeMicros, String key, long token, long value, boolean read, boolean accepted) {

	static StoreEntry write(long timeMicros, String key, long token, long value, boolean accepted) {
		return new StoreEntry(timeMicros, key, token, value, false, accepted);
	}

	static StoreEntry read(long timeMicros, String key, long token, long value) {
		return new StoreEntry(timeMicros, key, token, value, true, true);
	}

	boolean acceptedWrite() {
		return !this.read && this.accepted;
	}

	boolean refusedWrite() {
		return !this.read && !this.accepted;
	}

	String format() {
		return this.timeMicros + "\t" + this.key + "\t" + this.token + "\t" + this.value + "\t"
				+ (this.read ? "READ" : (this.accepted ? "ACCEPTED" : "REJECTED"));
	}

}
