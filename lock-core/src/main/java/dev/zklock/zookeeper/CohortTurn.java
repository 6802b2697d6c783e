package dev.zklock.zookeeper;

import dev.zklock.zookeeper.LockQueue.QueuedNode;
import org.jspecify.annotations.Nullable;

/**
 * A thread's turn in a {@link LockCohort}: at a node, or to lead.
 *
 * @param node the node the thread holds from now on; {@code null} for the turn to lead,
 * that is to queue for a node in ZooKeeper
 * @param handOff how many holders had the node before this one: {@code 0} for the thread
 * that queued it in ZooKeeper
 * @param checkedAt for a node handed over, the {@link LockLossDetector#doubts() doubt
 * count} read before a holder of this process last found it held; for a node whose turn
 * ZooKeeper showed, the {@link LockLossDetector#pauses() pause count} read before
 * ZooKeeper was asked: the turn stands only if nothing was counted since
 */
record CohortTurn(@Nullable QueuedNode node, int handOff, long checkedAt) {

	static final CohortTurn LEAD = new CohortTurn(null, 0, 0);

	boolean leads() {
		return this.node == null;
	}

}
