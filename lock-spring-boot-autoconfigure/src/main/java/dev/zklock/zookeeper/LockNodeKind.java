package dev.zklock.zookeeper;

import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * What a node in a {@link LockQueue} asks for, which decides when its turn comes.
 */
enum LockNodeKind {

	/**
	 * Alone: its turn comes when it is first in the queue.
	 */
	EXCLUSIVE("lock-") {

		@Override
		@Nullable String blockerOf(List<String> queue, int position, String keyPath) {
			return (position > 0) ? queue.get(position - 1) : null;
		}

	};

	private final String namePrefix;

	LockNodeKind(String namePrefix) {
		this.namePrefix = namePrefix;
	}

	/**
	 * The start of the name of a node of this kind; ZooKeeper appends the sequence.
	 * @return the name prefix
	 */
	String namePrefix() {
		return this.namePrefix;
	}

	/**
	 * The node that a node of this kind waits for.
	 * @param queue the names of the queue's nodes, in sequence order
	 * @param position the node's position in the queue
	 * @param keyPath the path of the queue's key node, for error messages
	 * @return the name of the node to wait for, or {@code null} if the node's turn has
	 * come
	 */
	abstract @Nullable String blockerOf(List<String> queue, int position, String keyPath);

}
