package dev.zklock.zookeeper;

/**
 * A lock node in a key's queue, with the fencing tokens of its holds: the node's creation
 * zxid (its {@code czxid}) followed by the node's hand-off count, so that every holder of
 * the node gets a token of its own, greater than every token of the node's earlier
 * holders and of every node created before it.
 * <p>
 * A token is {@code czxid << }{@value #HAND_OFF_BITS}{@code  | handOff}: the hold that
 * queued the node in ZooKeeper has hand-off {@code 0}, and each thread of the process
 * that takes the node over (or joins a shared read node) the next number, up to
 * {@link #MAX_HAND_OFFS}. ZooKeeper gives every node a greater zxid than the nodes
 * created before it, across sessions, processes, and the reaping and re-creation of the
 * key's node, so tokens grow with every hold. A zxid is a 32-bit epoch (one more at each
 * election of a leader) followed by a 32-bit counter; the token has room for zxids of
 * epochs below {@link #EPOCH_LIMIT}, which an ensemble reaches only after that many
 * leader elections.
 */
record LockNode(String path, LockNodeKind kind, long czxid, long sessionId, boolean copiesPossible) {

	/** How many low bits of a token count the hand-offs of its node. */
	static final int HAND_OFF_BITS = 12;

	/** The most hand-offs of one lock node: {@value}. */
	static final int MAX_HAND_OFFS = (1 << HAND_OFF_BITS) - 1;

	/** The first ZooKeeper epoch whose zxids do not fit in a token: {@value}. */
	static final long EPOCH_LIMIT = 1L << (31 - HAND_OFF_BITS);

	/** A node whose zxid fits no fencing token is an {@link IllegalStateException}. */
	LockNode {
		fencingTokenOf(czxid, 0);
	}

	/** A node whose create was answered at once: it has no copies. */
	LockNode(String path, LockNodeKind kind, long czxid, long sessionId) {
		this(path, kind, czxid, sessionId, false);
	}

	/**
	 * The same node, known to have been created while the connection was lost: the create
	 * may have been applied twice, and a copy may turn up in the queue after any look at
	 * it, so the release looks for copies too.
	 */
	LockNode withCopiesPossible() {
		return new LockNode(this.path, this.kind, this.czxid, this.sessionId, true);
	}

	/** The fencing token of the hold that {@code handOff} holders had before. */
	long fencingToken(int handOff) {
		return fencingTokenOf(this.czxid, handOff);
	}

	/** The node's name, the last part of its path. */
	String name() {
		return this.path.substring(this.path.lastIndexOf('/') + 1);
	}

	/**
	 * The fencing token of a hold of a lock node, whose {@code handOff} is {@code 0} for
	 * the hold that queued it; an {@link IllegalStateException} if the zxid is of an
	 * epoch of {@link #EPOCH_LIMIT} or later, or the hand-off count is out of range.
	 */
	static long fencingTokenOf(long czxid, int handOff) {
		if (handOff < 0 || handOff > MAX_HAND_OFFS) {
			throw new IllegalStateException(
					"A lock node takes at most " + MAX_HAND_OFFS + " hand-offs, not " + handOff);
		}
		if (czxid < 0 || (czxid >>> 32) >= EPOCH_LIMIT) {
			throw new IllegalStateException(
					"The lock node was created with zxid 0x" + Long.toHexString(czxid) + ", of ZooKeeper epoch "
							+ (czxid >>> 32) + ": fencing tokens hold zxids of epochs below " + EPOCH_LIMIT);
		}
		return (czxid << HAND_OFF_BITS) | handOff;
	}

}
