package dev.zklock.zookeeper;

import java.util.Comparator;

/**
 * The sequence number that ZooKeeper appends to the name of every node of a
 * {@link LockQueue}, which gives the queue its order whatever the nodes' prefixes.
 */
final class LockNodeSequence {

	/**
	 * The number of digits of a sequence number.
	 */
	static final int LENGTH = 10;

	/**
	 * Orders node names as their nodes stand in the queue.
	 */
	static final Comparator<String> QUEUE_ORDER = Comparator.comparing(LockNodeSequence::of);

	private LockNodeSequence() {
	}

	/**
	 * The sequence number of a node.
	 * @param nodeName the node's name
	 * @return the sequence number, as the digits that end the name
	 */
	static String of(String nodeName) {
		return nodeName.substring(Math.max(0, nodeName.length() - LENGTH));
	}

}
