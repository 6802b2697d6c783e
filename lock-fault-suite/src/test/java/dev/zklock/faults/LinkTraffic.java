package dev.zklock.faults;

import java.util.concurrent.atomic.AtomicLong;

/**
 * What passed through a {@link LinkProxy link} so far, as its connections count it: the
 * bytes a cut held back, the connections reset at random, and when bytes were last
 * forwarded.
 */
final class LinkTraffic {

	private final AtomicLong heldBytes = new AtomicLong();

	private final AtomicLong drops = new AtomicLong();

	private volatile long lastForwardedNanos;

	/**
	 * Counts bytes sent into the link while it was cut.
	 * @param bytes the number of bytes
	 */
	void held(int bytes) {
		this.heldBytes.addAndGet(bytes);
	}

	/**
	 * Counts a connection reset at random.
	 */
	void dropped() {
		this.drops.incrementAndGet();
	}

	/**
	 * Notes that bytes were forwarded just now.
	 */
	void forwarded() {
		this.lastForwardedNanos = System.nanoTime();
	}

	/**
	 * Bytes held back by a cut so far: sent into the link while it was cut.
	 * @return the number of bytes
	 */
	long heldBytes() {
		return this.heldBytes.get();
	}

	/**
	 * Connections reset at random so far.
	 * @return the number of resets
	 */
	long drops() {
		return this.drops.get();
	}

	/**
	 * When the link last forwarded bytes, in {@link System#nanoTime()} of this JVM.
	 * @return the time, or {@code 0} when it never did
	 */
	long lastForwardedNanos() {
		return this.lastForwardedNanos;
	}

}
