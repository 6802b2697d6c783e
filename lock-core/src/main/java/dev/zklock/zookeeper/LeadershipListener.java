package dev.zklock.zookeeper;

/**
 * What a {@link LeaderElection} tells its candidate: each term it is granted, and the end
 * of that term. Both run on the election's own thread, one after the other: a term is
 * revoked only after its {@link #granted} returned, and the next term is granted only
 * after the previous one's {@link #revoked} returned. Keep them short (start and stop the
 * leader's work; do not do it in them): revocation waits for a slow {@code granted}.
 */
public interface LeadershipListener {

	/**
	 * This candidate leads, for the term given: until {@link #revoked} is called for it.
	 * A callback that throws ends the term at once (it is logged, and the candidate
	 * yields).
	 * @param term the term, whose {@link LeaderTerm#fencingToken() fencing token} is
	 * greater than every earlier leader's
	 */
	void granted(LeaderTerm term);

	/**
	 * The term ended: the candidate yielded, the election was closed, or the term's lock
	 * was doubted or lost (the connection to ZooKeeper suspended, the session ended, the
	 * process paused). The term is no longer {@link LeaderTerm#isValid() valid}. When the
	 * candidate yielded or the election closed, the term's lock is released only after
	 * this returns, so that no other instance leads before; after a doubt or a loss,
	 * another instance may lead already, and only fencing with the term's token keeps the
	 * writes of this one out.
	 * @param term the term that ended
	 * @param reason why it ended
	 */
	void revoked(LeaderTerm term, String reason);

}
