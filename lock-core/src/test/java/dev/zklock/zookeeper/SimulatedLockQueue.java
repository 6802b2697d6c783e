package dev.zklock.zookeeper;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.List;
import java.util.function.Consumer;

/**
 * A key's queue of lock nodes in memory, standing in for ZooKeeper only where
 * {@link KeyStateModelCheckTests} checks the in-process state machine: nodes queue in the
 * order they are created, with increasing creation zxids, and a node's turn comes as its
 * kind says ({@link LockNodeKind#blockerOf}), when the nodes it waits for are deleted.
 * <p>
 * Who queues behind a node is answered as ZooKeeper answers it, later, on the thread that
 * runs {@link #answerWatches()}: whether a node queues behind at the time of the answer,
 * and {@code true} once more when a node is created afterwards (the watch's event).
 */
final class SimulatedLockQueue {

	private final List<LockNode> nodes = new ArrayList<>();

	/** The answers ZooKeeper owes, in the order they were asked for. */
	private final Deque<Watch> unanswered = new ArrayDeque<>();

	/** The watches set by an answer, which the next node created fires. */
	private final List<Watch> set = new ArrayList<>();

	private long lastZxid;

	private boolean closed;

	/**
	 * Creates a node at the end of the queue.
	 * @param kind what the node asks for
	 * @return the node
	 */
	synchronized LockNode create(LockNodeKind kind) {
		this.lastZxid++;
		String sequence = Long.toString(this.lastZxid);
		String name = kind.namePrefix() + "0".repeat(LockNodeKind.SEQUENCE_LENGTH - sequence.length()) + sequence;
		LockNode node = new LockNode("/locks/k/_c_" + this.lastZxid + "-" + name, kind, this.lastZxid, 1);
		this.nodes.add(node);
		for (Watch watch : this.set) {
			this.unanswered.addLast(new Watch(watch.held, watch.othersQueued, true));
		}
		this.set.clear();
		notifyAll();
		return node;
	}

	/**
	 * Waits until the node's turn comes.
	 * @param node the node
	 * @param wait whether to wait; {@code false} answers at once
	 * @return whether the node's turn came
	 * @throws InterruptedException if the thread was interrupted while it waited
	 */
	synchronized boolean awaitTurn(LockNode node, boolean wait) throws InterruptedException {
		while (!turnHasCome(node)) {
			if (!wait) {
				return false;
			}
			wait();
		}
		return true;
	}

	/**
	 * Whether a node's turn has come, by the rules of {@link LockNodeKind#blockerOf},
	 * read from the nodes' kinds rather than their names (Lincheck cannot follow the
	 * regular expressions that parse the names).
	 */
	private boolean turnHasCome(LockNode node) {
		int position = this.nodes.indexOf(node);
		if (node.kind() instanceof LockNodeKind.Permit permit) {
			return position < permit.permits();
		}
		for (int ahead = 0; ahead < position; ahead++) {
			if (node.kind() == LockNodeKind.EXCLUSIVE || this.nodes.get(ahead).kind() == LockNodeKind.EXCLUSIVE) {
				return false;
			}
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
	 * Asks whether other nodes queue behind a node; {@link #answerWatches()} answers.
	 * @param held the node
	 * @param othersQueued takes the answer
	 */
	synchronized void watchBehind(LockNode held, Consumer<Boolean> othersQueued) {
		this.unanswered.addLast(new Watch(held, othersQueued, false));
		notifyAll();
	}

	/**
	 * ZooKeeper's thread: answers who queues behind each node asked about, until
	 * {@link #close()}; the answers are given outside this queue's monitor, as
	 * ZooKeeper's event thread gives them.
	 */
	void answerWatches() {
		while (true) {
			Watch watch;
			boolean queued;
			synchronized (this) {
				while (this.unanswered.isEmpty() && !this.closed) {
					try {
						wait();
					}
					catch (InterruptedException ex) {
						throw new IllegalStateException(ex);
					}
				}
				if (this.unanswered.isEmpty()) {
					return;
				}
				watch = this.unanswered.removeFirst();
				long heldZxid = watch.held.czxid();
				queued = watch.fired || this.nodes.stream().anyMatch((node) -> node.czxid() > heldZxid);
				if (!queued) {
					this.set.add(watch);
				}
			}
			watch.othersQueued.accept(queued);
		}
	}

	/** Ends {@link #answerWatches()} once every answer owed is given. */
	synchronized void close() {
		this.closed = true;
		notifyAll();
	}

	/**
	 * The nodes left in the queue.
	 * @return how many nodes are left
	 */
	synchronized int size() {
		return this.nodes.size();
	}

	/**
	 * A question of who queues behind a node, and whether the node's watch fired (a node
	 * was created behind it since it was answered).
	 */
	private record Watch(LockNode held, Consumer<Boolean> othersQueued, boolean fired) {

	}

}
