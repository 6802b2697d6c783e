package dev.zklock.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

/**
 * One read of the nodes of a {@link LockQueue}, in queue order, that may watch the queue
 * for the next change. It is sent in the background, and its reply waited for within a
 * {@link ReplyWait}.
 */
final class QueueRead {

	private final CompletableFuture<CuratorEvent> reply;

	private final CountDownLatch changed;

	private QueueRead(CompletableFuture<CuratorEvent> reply, CountDownLatch changed) {
		this.reply = reply;
		this.changed = changed;
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
		CountDownLatch changed = new CountDownLatch(1);
		CompletableFuture<CuratorEvent> reply = new CompletableFuture<>();
		var read = client.getChildren();
		(watch ? read.usingWatcher((Watcher) (event) -> changed.countDown()) : read)
			.inBackground((curator, event) -> reply.complete(event))
			.forPath(keyPath);
		return new QueueRead(reply, changed);
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
	 * @throws InterruptedException if the thread is interrupted
	 */
	boolean awaitChange(long timeoutNanos) throws InterruptedException {
		return this.changed.await(timeoutNanos, TimeUnit.NANOSECONDS);
	}

}
