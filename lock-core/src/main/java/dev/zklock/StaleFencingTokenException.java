package dev.zklock;

import java.util.OptionalLong;

import org.jspecify.annotations.Nullable;

/**
 * Thrown when storage refuses a write under a distributed lock because a newer holder of
 * the lock, with a greater fencing token, has written before: the caller lost the lock (a
 * long pause, a network partition, an expired session) and must not write. Thrown inside
 * the caller's transaction, it rolls the transaction back with every write in it.
 * <p>
 * A refusal can also mean that ZooKeeper's data was reset (a new ensemble, a deleted data
 * directory) while the storage kept the tokens it had seen: tokens then start again below
 * those, and every write is refused until the storage forgets them.
 * <p>
 * The auto-configuration's {@code dev.zklock.jdbc.JdbcLockFence} throws it for relational
 * databases.
 */
public class StaleFencingTokenException extends LockException {

	/** The key of the lock whose write was refused. */
	private final String key;

	/** The fencing token of the refused write. */
	private final long fencingToken;

	/** The greater token the storage had seen for the key, or {@code null} if untold. */
	private final @Nullable Long newerFencingToken;

	/**
	 * Creates an exception for a refused write.
	 * @param key the key of the lock
	 * @param fencingToken the fencing token of the refused write
	 * @param newerFencingToken the greater fencing token the storage had seen for the key
	 */
	public StaleFencingTokenException(String key, long fencingToken, long newerFencingToken) {
		this(key, fencingToken, "older than " + newerFencingToken + ", which", newerFencingToken);
	}

	/**
	 * Creates an exception for a refused write, when the storage did not tell the greater
	 * fencing token it had seen.
	 * @param key the key of the lock
	 * @param fencingToken the fencing token of the refused write
	 */
	public StaleFencingTokenException(String key, long fencingToken) {
		this(key, fencingToken, "older than the one that", null);
	}

	private StaleFencingTokenException(String key, long fencingToken, String newer, @Nullable Long newerFencingToken) {
		super("Write under lock '" + AbbreviatedKey.of(key) + "' refused: its fencing token " + fencingToken + " is "
				+ newer + " a newer holder of the lock has written with, so this holder lost the lock (or "
				+ "ZooKeeper's data was reset while the storage kept its tokens)", null);
		this.key = key;
		this.fencingToken = fencingToken;
		this.newerFencingToken = newerFencingToken;
	}

	/**
	 * The key of the lock whose write was refused.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * The fencing token of the refused write.
	 * @return the stale fencing token
	 */
	public long getFencingToken() {
		return this.fencingToken;
	}

	/**
	 * The greater fencing token that the storage had seen for the key, from a newer
	 * holder of the lock.
	 * @return the newer fencing token, or empty if the storage did not tell
	 */
	public OptionalLong getNewerFencingToken() {
		return (this.newerFencingToken != null) ? OptionalLong.of(this.newerFencingToken) : OptionalLong.empty();
	}

}
