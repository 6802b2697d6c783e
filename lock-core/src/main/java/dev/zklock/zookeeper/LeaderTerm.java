package dev.zklock.zookeeper;

import java.time.Instant;
import java.util.concurrent.CompletionStage;

import dev.zklock.LockHandle;
import dev.zklock.ReleasableLock;

/**
 * One term of a {@link LeaderElection}'s leader: the hold of the election's lock from the
 * moment it was granted to the moment it was revoked. Pass its {@link #fencingToken()}
 * with the leader's writes, as a lock holder does, so that storage refuses the writes of
 * a leader whose term ended without it knowing (paused, cut off).
 */
public final class LeaderTerm implements LockHandle {

	private final ReleasableLock lock;

	/** Completes with the reason when the lock is first doubted or lost. */
	private final CompletionStage<String> invalidation;

	private final Instant grantedAt = Instant.now();

	/** Set once the term was revoked; the lock's validity covers the rest. */
	private volatile boolean revoked;

	LeaderTerm(ReleasableLock lock, CompletionStage<String> invalidation) {
		this.lock = lock;
		this.invalidation = invalidation;
	}

	/**
	 * The election's name, which is the key of its lock.
	 * @return the election's name
	 */
	@Override
	public String key() {
		return this.lock.key();
	}

	/**
	 * The fencing token of the term: greater than the token of every earlier term of the
	 * election, this candidate's and other instances', and of every earlier hold of its
	 * lock.
	 * @return the term's fencing token
	 */
	@Override
	public long fencingToken() {
		return this.lock.fencingToken();
	}

	/**
	 * Whether this term goes on as far as this process can tell: {@code false} once it
	 * was revoked, and as soon as its lock is doubted or lost, even before the election's
	 * thread has revoked it.
	 * @return whether the term goes on
	 */
	@Override
	public boolean isValid() {
		return !this.revoked && this.lock.isValid();
	}

	/**
	 * When this term was granted, by this process's clock.
	 * @return when the term began
	 */
	public Instant grantedAt() {
		return this.grantedAt;
	}

	ReleasableLock lock() {
		return this.lock;
	}

	CompletionStage<String> invalidation() {
		return this.invalidation;
	}

	void revoke() {
		this.revoked = true;
	}

	@Override
	public String toString() {
		return "LeaderTerm[election=" + key() + ", fencingToken=" + fencingToken() + "]";
	}

}
