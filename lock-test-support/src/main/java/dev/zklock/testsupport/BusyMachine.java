package dev.zklock.testsupport;

import java.time.Duration;

/**
 * How late a test lets a step end on a busy machine before it calls the step a hang: the
 * tests run on two cores shared with other builds, where a thread can wait seconds for
 * its turn.
 */
public final class BusyMachine {

	/**
	 * Time a loaded machine may add to what the product promises (a wait time plus its
	 * grace): far beyond scheduling delays, far below a hang.
	 */
	public static final Duration MARGIN = Duration.ofSeconds(30);

	private BusyMachine() {
	}

}
