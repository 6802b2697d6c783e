package dev.zklock.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.jspecify.annotations.Nullable;

/**
 * One read of the nodes of a {@link LockQueue}, in queue order, that may watch the queue
 * for the next change.
 */
final class QueueRead {

	private final CompletableFuture<@Nullable List<String>> children;

	private final CountDownLatch changed;

	private QueueRead(CompletableFuture<@Nullable List<String>> children, CountDownLatch changed) {
		this.children = children;
		this.changed = changed;
	}

	/**
	 * Sends a read without waiting for its answer. A read that fails (because the queue's
	 * node does not exist yet, for example) answers {@code null}.
	 * @param client the client
	 * @param keyPath the path of the queue's node
	 * @param watch whether to watch the queue for its next change
	 * @return the read, whose answer comes later
	 * @throws Exception if the read cannot be sent
	 */
	static QueueRead start(CuratorFramework client, String keyPath, boolean watch) throws Exception {
		CountDownLatch changed = new CountDownLatch(1);
		CompletableFuture<@Nullable List<String>> children = new CompletableFuture<>();
		var read = client.getChildren();
		(watch ? read.usingWatcher((Watcher) (event) -> changed.countDown()) : read)
			.inBackground((curator, event) -> children
				.complete((event.getResultCode() == KeeperException.Code.OK.intValue()) ? event.getChildren() : null))
			.forPath(keyPath);
		return new QueueRead(children, changed);
	}

	/**
	 * Reads the queue, waiting for the answer.
	 * @param client the client
	 * @param keyPath the path of the queue's node
	 * @param watch whether to watch the queue for its next change
	 * @return the read, answered
	 * @throws KeeperException.NoNodeException if the queue's node does not exist
	 * @throws Exception if ZooKeeper fails, or the thread is interrupted
	 */
	static QueueRead now(CuratorFramework client, String keyPath, boolean watch) throws Exception {
		CountDownLatch changed = new CountDownLatch(1);
		List<String> children = watch
				? client.getChildren().usingWatcher((Watcher) (event) -> changed.countDown()).forPath(keyPath)
				: client.getChildren().forPath(keyPath);
		return new QueueRead(CompletableFuture.completedFuture(children), changed);
	}

	/**
	 * The names of the queue's nodes, in queue order, waiting for the answer if need be.
	 * @return the names, or {@code null} if a read that was {@link #start started} failed
	 * @throws Exception if the thread is interrupted
	 */
	@Nullable List<String> children() throws Exception {
		List<String> names = this.children.get();
		if (names == null) {
			return null;
		}
		List<String> sorted = new ArrayList<>(names);
		sorted.sort(LockQueue.BY_SEQUENCE);
		return sorted;
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
