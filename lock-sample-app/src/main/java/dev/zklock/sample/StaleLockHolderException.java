package dev.zklock.sample;

import java.time.LocalDate;

/**
 * Thrown when the database refuses to advance a day's sequence because a lock holder with
 * a newer fencing token has written it: the caller's lock is no longer its own, and its
 * transaction is rolled back.
 */
public class StaleLockHolderException extends RuntimeException {

	/**
	 * Creates an exception for a refused write.
	 * @param day the day whose sequence was to be advanced
	 * @param fencingToken the fencing token of the refused write
	 */
	public StaleLockHolderException(LocalDate day, long fencingToken) {
		super("The order sequence of " + day + " was written with a fencing token newer than " + fencingToken
				+ ": this instance no longer holds the lock (or ZooKeeper's data was reset while the database was "
				+ "kept), so its write was refused");
	}

}
