package dev.zklock.faults;

/**
 * One write the fenced store received, as the store logged it.
 *
 * @param timeMicros when the store decided, on the store's clock, in microseconds
 * @param key the key written
 * @param token the fencing token the writer carried
 * @param value the value the writer asked to store
 * @param accepted whether the store accepted the write
 */
record StoreWrite(long timeMicros, String key, long token, long value, boolean accepted) {

	String format() {
		return this.timeMicros + "\t" + this.key + "\t" + this.token + "\t" + this.value + "\t"
				+ (this.accepted ? "ACCEPTED" : "REJECTED");
	}

}
