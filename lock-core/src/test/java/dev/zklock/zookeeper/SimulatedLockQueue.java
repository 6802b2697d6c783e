package dev.zklock.zookeeper;

import java.util.ArrayDeque;
import java.util.Deque;

/**
 * A key's queue of lock nodes in memory, standing in for ZooKeeper only where
 * {@link KeyStateModelCheckTests} checks the in-process state machine: nodes queue in the
 * order they are created, with increasing creation zxids, and a node's turn comes when
 * every earlier node is deleted.
 */
final class SimulatedLockQueue {

	private final Deque<LockNode> nodes = new ArrayDeque<>();

	private long lastZxid;

	/**
	 * Creates a node at the end of the queue.
	 * @return the node
	 */
	synchronized LockNode create() {
		this.lastZxid++;
		LockNode node = new LockNode("/locks/k/_c_" + this.lastZxid + "-lock-" + this.lastZxid, LockNodeKind.EXCLUSIVE,
				this.lastZxid, 1);
		this.nodes.addLast(node);
		return node;
	}

	/**
	 * Waits until every node created before this one is deleted.
	 * @param node the node
	 * @param wait whether to wait; {@code false} answers at once
	 * @return whether the node's turn came
	 * @throws InterruptedException if the thread was interrupted while it waited
	 */
	synchronized boolean awaitTurn(LockNode node, boolean wait) throws InterruptedException {
		while (!node.equals(this.nodes.peekFirst())) {
			if (!wait) {
				return false;
			}
			wait();
		}
		return true;
	}

	/**
	 * Deletes a node.
	 * @param node the node
	 * @throws AssertionError if the node was deleted before
	 */
	synchronized void delete(LockNode node) {
		if (!this.nodes.remove(node)) {
			throw new AssertionError("The node " + node.name() + " was deleted twice");
		}
		notifyAll();
	}

	/**
	 * The nodes left in the queue.
	 * @return how many nodes are left
	 */
	synchronized int size() {
		return this.nodes.size();
	}

}
