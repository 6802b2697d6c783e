package dev.zklock.zookeeper;

import java.util.function.Consumer;

import dev.zklock.zookeeper.LockQueue.QueuedNode;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.zookeeper.KeeperException;

/**
 * Learns from ZooKeeper whether other nodes queue behind a held node, for the bounds of a
 * {@link LockKey} cohort's hand-offs.
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

	/**
	 * The watch of a queue in ZooKeeper: it reads the queue in the background, and
	 * watches it until it changes. A change after the read counts as a node queued
	 * behind, whatever it was. A read that fails tells nothing.
	 * @param queue the queue
	 * @return the watch
	 */
	static QueueWatch of(LockQueue queue) {
		return (held, othersQueued) -> {
			String sequence = LockNodeSequence.of(held.name());
			queue.client()
				.getChildren()
				.usingWatcher((CuratorWatcher) (event) -> othersQueued.accept(true))
				.inBackground((client, event) -> {
					if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
						othersQueued.accept(event.getChildren()
							.stream()
							.anyMatch((child) -> LockNodeSequence.of(child).compareTo(sequence) > 0));
					}
				})
				.forPath(queue.keyPath());
		};
	}

}
