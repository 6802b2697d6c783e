package dev.zklock.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

/**
 * One read of the nodes of a {@link LockQueue}, in queue order, that may watch the queue
 * for the next change. It is sent in the background, and its reply waited for within a
 * {@link ReplyWait}.
 */
final class QueueRead {

	private final CompletableFuture<CuratorEvent> reply = new CompletableFuture<>();

	private final CountDownLatch changed = new CountDownLatch(1);

	private volatile boolean connectionLost;

	private QueueRead() {
	}

	/**
	 * Sends a read without waiting for its reply.
	 * @param client the client
	 * @param keyPath the path of the queue's node
	 * @param watch whether to watch the queue for its next change
	 * @return the read, whose reply comes later
	 * @throws Exception if the read cannot be sent
	 */
	static QueueRead start(CuratorFramework client, String keyPath, boolean watch) throws Exception {
		QueueRead read = new QueueRead();
		var children = client.getChildren();
		(watch ? children.usingWatcher((Watcher) read::watched) : children)
			.inBackground((curator, event) -> read.reply.complete(event))
			.forPath(keyPath);
		return read;
	}

	private void watched(WatchedEvent event) {
		if (announcesConnectionLoss(event)) {
			this.connectionLost = true;
		}
		this.changed.countDown();
	}

	/**
	 * Whether a watch fired because the client lost its connection (or its session),
	 * rather than for a change of the watched node.
	 * @param event the event that fired the watch
	 * @return whether the event announces a lost connection
	 */
	static boolean announcesConnectionLoss(WatchedEvent event) {
		return event.getType() == Watcher.Event.EventType.None
				&& event.getState() != Watcher.Event.KeeperState.SyncConnected
				&& event.getState() != Watcher.Event.KeeperState.ConnectedReadOnly;
	}

	/**
	 * The names of the queue's nodes, in queue order, waiting for the reply if need be.
	 * @param replies how long to wait for the reply
	 * @return the names
	 * @throws KeeperException if the read failed
	 * @throws Exception if the reply did not come in time, or the thread is interrupted
	 */
	List<String> children(ReplyWait replies) throws Exception {
		CuratorEvent event = replies.await(this.reply);
		KeeperException.Code result = KeeperException.Code.get(event.getResultCode());
		if (result != KeeperException.Code.OK) {
			throw KeeperException.create(result, event.getPath());
		}
		List<String> sorted = new ArrayList<>(event.getChildren());
		sorted.sort(LockNodeSequence.QUEUE_ORDER);
		return sorted;
	}

	/**
	 * The names of the queue's nodes, or {@code null} if the read failed.
	 * @param replies how long to wait for the reply
	 * @return the names, or {@code null}
	 * @throws Exception if the reply did not come in time, or the thread is interrupted
	 */
	@Nullable List<String> childrenIfRead(ReplyWait replies) throws Exception {
		try {
			return children(replies);
		}
		catch (KeeperException ex) {
			return null;
		}
	}

	/**
	 * Waits for the queue to change after this read, if the read watches it.
	 * @param timeoutNanos the longest wait
	 * @return whether the queue changed in time
	 * @throws KeeperException.ConnectionLossException if the watch fired because the
	 * client lost its connection: ZooKeeper's event reaches the watch possibly before
	 * Curator's connection state, so a request sent now could go out into the outage
	 * @throws InterruptedException if the thread is interrupted
	 */
	boolean awaitChange(long timeoutNanos) throws KeeperException.ConnectionLossException, InterruptedException {
		boolean fired = this.changed.await(timeoutNanos, TimeUnit.NANOSECONDS);
		if (fired && this.connectionLost) {
			throw new KeeperException.ConnectionLossException();
		}
		return fired;
	}

}
