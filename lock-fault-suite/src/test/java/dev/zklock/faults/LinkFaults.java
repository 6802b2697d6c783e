package dev.zklock.faults;

import java.time.Duration;
import java.util.concurrent.ThreadLocalRandom;

/**
 * The faults a {@link LinkProxy link} injects at the moment, set by the test and obeyed
 * by every connection through the link: a cut, a delay and random resets.
 * <p>
 * A cut is a black hole, as a partition is: connections stay open and nothing passes in
 * either direction, so each side only learns of it from its own timeouts; a connection
 * made during the cut is accepted but reaches the other side only once the link heals.
 * What was sent during the cut is held and delivered, in order, when the link heals, as
 * TCP's retransmissions would deliver it after a partition shorter than their timeout.
 */
final class LinkFaults {

	private final Object gate = new Object();

	private volatile long delayNanos;

	private volatile double dropProbability;

	private boolean cut;

	/**
	 * Cuts the link: nothing passes until {@link #heal()}.
	 */
	void cut() {
		synchronized (this.gate) {
			this.cut = true;
		}
	}

	/**
	 * Ends a cut, a delay and random drops: what was held back is delivered, in order.
	 */
	void heal() {
		this.delayNanos = 0;
		this.dropProbability = 0;
		synchronized (this.gate) {
			this.cut = false;
			this.gate.notifyAll();
		}
	}

	boolean isCut() {
		synchronized (this.gate) {
			return this.cut;
		}
	}

	/**
	 * Delays every chunk read from now on, in both directions: a round trip through the
	 * link takes twice as long more.
	 * @param oneWay the delay of each direction
	 */
	void delay(Duration oneWay) {
		this.delayNanos = oneWay.toNanos();
	}

	/**
	 * When a chunk read now is due to be forwarded.
	 * @return the time, in {@link System#nanoTime()}
	 */
	long dueNanos() {
		return System.nanoTime() + this.delayNanos;
	}

	/**
	 * Breaks connections at random from now on: each chunk about to be forwarded resets
	 * its connection (both sides see it closed) with the given probability, and so does
	 * each new connection as it is accepted. Dropping single packets would corrupt the
	 * byte stream instead, which TCP never lets happen; a lossy network shows through TCP
	 * as connections that stall and break.
	 * @param probability the probability of a reset per chunk and per new connection
	 */
	void dropAtRandom(double probability) {
		this.dropProbability = probability;
	}

	/**
	 * Draws whether to reset a connection now.
	 * @return whether to reset it
	 */
	boolean dropNow() {
		double probability = this.dropProbability;
		return probability > 0 && ThreadLocalRandom.current().nextDouble() < probability;
	}

	/**
	 * Waits while the link is cut.
	 */
	void awaitOpenLink() throws InterruptedException {
		synchronized (this.gate) {
			while (this.cut) {
				this.gate.wait();
			}
		}
	}

}
