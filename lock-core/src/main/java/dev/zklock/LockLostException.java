package dev.zklock;

/**
 * Thrown when the protected code of a distributed lock returns after the lock was lost
 * while it ran: the ZooKeeper connection was suspended or the session ended, or the
 * process was paused for long enough that ZooKeeper may have ended the session, so
 * another holder may have run at the same time. Whether this is thrown is the lost-lock
 * policy's choice ({@code distributed-lock.lost-lock.actions}).
 * <p>
 * The protected code ran to its end: its effects are in place. Storage that checks the
 * lock's fencing token has refused the writes that came after another holder's.
 */
public class LockLostException extends LockException {

	/** The key of the lost lock. */
	private final String key;

	/** The fencing token of the lost hold. */
	private final long fencingToken;

	/**
	 * Creates an exception for a lock that was lost while its holder ran.
	 * @param key the key of the lock
	 * @param fencingToken the fencing token of the lost hold
	 * @param reason why the lock counts as lost
	 */
	public LockLostException(String key, long fencingToken, String reason) {
		super("Lock '" + AbbreviatedKey.of(key) + "' (fencing token " + fencingToken
				+ ") was lost while its holder ran, "
				+ "so the protected code may have run at the same time as another holder's: " + reason, null);
		this.key = key;
		this.fencingToken = fencingToken;
	}

	/**
	 * The key of the lock that was lost.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * The fencing token of the hold that was lost.
	 * @return the fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

}
