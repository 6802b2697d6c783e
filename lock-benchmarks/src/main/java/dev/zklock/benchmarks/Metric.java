package dev.zklock.benchmarks;

import java.util.Locale;

/**
 * A measurement of a result row besides its throughput, such as a latency, a JVM's share
 * of the acquisitions or a heap growth.
 *
 * @param name what was measured
 * @param value the value, in the unit
 * @param unit the unit, such as {@code ms}, {@code %} or {@code MB}; empty for counts
 */
record Metric(String name, double value, String unit) {

	/**
	 * The metric as a reader sees it: {@code max wait 12.3 ms}.
	 * @return the text
	 */
	String toText() {
		String number = (this.value == Math.rint(this.value) && Math.abs(this.value) < 1e15)
				? Long.toString((long) this.value) : String.format(Locale.ROOT, "%.2f", this.value);
		return this.name + " " + number + (this.unit.isEmpty() ? "" : " " + this.unit);
	}

}
