package dev.zklock.zookeeper;

import java.util.function.Consumer;

import dev.zklock.zookeeper.LockQueue.QueuedNode;

/**
 * Learns from ZooKeeper whether other nodes queue behind a held node, for the bounds of a
 * {@link LockCohort}'s hand-offs.
 */
@FunctionalInterface
interface QueueWatch {

	/**
	 * Reads the node's queue in the background and watches it.
	 * @param held the held node
	 * @param othersQueued told {@code true} or {@code false} once the read answers, and
	 * {@code true} when the queue changes afterwards
	 * @throws Exception if the read cannot be sent
	 */
	void watchBehind(QueuedNode held, Consumer<Boolean> othersQueued) throws Exception;

}
