package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.function.LongSupplier;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockAcquisitionException;
import dev.zklock.zookeeper.LockQueue.QueuedNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

/**
 * Takes turns in {@link LockQueue}s and gives them up, within deadlines. Requests go to
 * ZooKeeper in the background, and their replies are waited for within a
 * {@link ReplyWait}: Curator retries an operation that lost its connection for as long as
 * its retry policy allows, which can be far longer than a lock's wait time, and the wait
 * for it ends anyway. Nodes whose turn did not come are deleted in the background.
 */
final class QueueTurns {

	private static final Logger logger = LoggerFactory.getLogger(QueueTurns.class);

	private final CuratorFramework client;

	private volatile @Nullable RootGuard rootGuard;

	QueueTurns(CuratorFramework client) {
		this.client = client;
	}

	/**
	 * Checks the root with a guard before the first node is queued under it.
	 * @param rootGuard the guard
	 */
	void guardRoot(RootGuard rootGuard) {
		this.rootGuard = rootGuard;
	}

	@Nullable RootGuard rootGuard() {
		return this.rootGuard;
	}

	/**
	 * Waits for a ZooKeeper connection, enqueues a node and waits for its turn, all by
	 * the deadline. A node whose session ends while it waits is enqueued again.
	 * @param queue the key's queue
	 * @param key the lock key, for messages
	 * @param kind what the node asks for
	 * @param holder who asks
	 * @param waitTime the wait time, for messages
	 * @param deadline the deadline, on the {@link System#nanoTime()} scale
	 * @param pauses counts the pauses of this process (see
	 * {@link LockLossDetector#pauses()})
	 * @return the turn of the node, with the pause count read before ZooKeeper showed it,
	 * or {@code null} if other holders kept the lock
	 * @throws LockAcquisitionException if ZooKeeper was not reachable or did not answer
	 * in time
	 * @throws Exception if ZooKeeper fails, or the thread is interrupted
	 */
	@Nullable CohortTurn take(LockQueue queue, String key, LockNodeKind kind, HolderIdentity holder, Duration waitTime,
			long deadline, LongSupplier pauses) throws Exception {
		awaitConnection(key, waitTime, deadline);
		verifyRoot(key);
		ReplyWait replies = new ReplyWait(this.client, deadline);
		QueuedNode node = null;
		OptionalLong turnCheckedAt = OptionalLong.empty();
		Exception failure = null;
		try {
			LockQueue.Arrival arrival = queue.enqueue(kind, holder, pauses, replies);
			node = arrival.node();
			turnCheckedAt = queue.awaitTurn(arrival, deadline, pauses, replies);
		}
		catch (Exception ex) {
			failure = ex;
		}
		if (node != null && turnCheckedAt.isEmpty()) {
			abandon(queue, node, key);
		}
		if (failure == null) {
			return turnCheckedAt.isPresent() ? new CohortTurn(node, 0, turnCheckedAt.getAsLong()) : null;
		}
		if (failure instanceof KeeperException.NoNodeException vanished) {
			return retryAfterSessionEnded(queue, key, kind, holder, waitTime, deadline, pauses, vanished);
		}
		if (failure instanceof TimeoutException) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + AbbreviatedKey.of(key) + "' within "
					+ waitTime.toMillis() + "ms: ZooKeeper (" + connectString() + ") did not answer in time", failure);
		}
		throw failure;
	}

	/**
	 * A lock node vanished while it waited: ZooKeeper ended the session that created it.
	 * Queue again in the new session, within the same deadline.
	 */
	private @Nullable CohortTurn retryAfterSessionEnded(LockQueue queue, String key, LockNodeKind kind,
			HolderIdentity holder, Duration waitTime, long deadline, LongSupplier pauses,
			KeeperException.NoNodeException ex) throws Exception {
		if (System.nanoTime() - deadline >= 0) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + AbbreviatedKey.of(key) + "' within "
					+ waitTime.toMillis() + "ms: the ZooKeeper session that queued for it ended", ex);
		}
		logger.debug("The lock node of '" + AbbreviatedKey.of(key) + "' vanished while it waited; queueing again", ex);
		return take(queue, key, kind, holder, waitTime, deadline, pauses);
	}

	private void verifyRoot(String key) throws Exception {
		RootGuard guard = this.rootGuard;
		if (guard != null) {
			try {
				guard.verify();
			}
			catch (IllegalStateException ex) {
				throw new LockAcquisitionException(key,
						"Could not acquire lock '" + AbbreviatedKey.of(key) + "': " + ex.getMessage(), ex);
			}
		}
	}

	private void awaitConnection(String key, Duration waitTime, long deadline) throws InterruptedException {
		if (this.client.getZookeeperClient().isConnected()) {
			return;
		}
		long remaining = deadline - System.nanoTime();
		if (remaining <= 0 || !this.client.blockUntilConnected(
				(int) Math.min(Integer.MAX_VALUE, Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining))),
				TimeUnit.MILLISECONDS)) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + AbbreviatedKey.of(key)
					+ "': no connection to ZooKeeper (" + connectString() + ") within " + waitTime.toMillis() + "ms",
					null);
		}
	}

	/**
	 * Describes who holds the head of a queue, for the message of a wait that timed out;
	 * gives up quietly if ZooKeeper does not answer by the deadline plus
	 * {@link ReplyWait#GRACE}, so that the description never holds the caller up longer.
	 * @param queue the queue
	 * @param deadline the wait's deadline, on the {@link System#nanoTime()} scale
	 * @return the holder's description, or {@code null} if it cannot be told
	 */
	@Nullable String describeHead(LockQueue queue, long deadline) {
		if (!this.client.getZookeeperClient().isConnected()) {
			return null;
		}
		try {
			HolderIdentity head = QueueHead.holderOf(this.client, queue.keyPath())
				.get(Math.max(0, deadline + ReplyWait.GRACE.toNanos() - System.nanoTime()), TimeUnit.NANOSECONDS);
			return (head != null) ? head.toString() : null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		catch (Exception ex) {
			logger.debug("Could not read who holds " + queue.keyPath(), ex);
			return null;
		}
	}

	/**
	 * Deletes a node without waiting for ZooKeeper to confirm it.
	 * @param queue the node's queue
	 * @param node the node
	 * @param key the lock key, for messages
	 */
	void abandon(LockQueue queue, QueuedNode node, String key) {
		try {
			queue.abandon(node);
		}
		catch (Exception ex) {
			logger.warn("Could not start deleting the lock node of '" + AbbreviatedKey.of(key) + "' (" + node.path()
					+ "); ZooKeeper deletes it when the session ends", ex);
		}
	}

	/**
	 * Deletes a held node without waiting for ZooKeeper: another process sees the lock
	 * free once the deletion is applied, and this session's next request on the key is
	 * applied after it. A node that is already gone is no error. A deletion that fails is
	 * logged; Curator keeps deleting the node in the background, and ZooKeeper deletes it
	 * when the session ends.
	 * @param node the node
	 * @param key the lock key, for messages
	 */
	void leave(QueuedNode node, String key) {
		try {
			this.client.delete().quietly().guaranteed().inBackground((curator, deleted) -> {
				// a node that is gone, or whose session ended, needs no more deleting
				KeeperException.Code result = KeeperException.Code.get(deleted.getResultCode());
				if (result != KeeperException.Code.OK && result != KeeperException.Code.NONODE
						&& result != KeeperException.Code.SESSIONEXPIRED) {
					logger.warn(undeletedNode(key, node, result.toString()));
				}
			}).forPath(node.path());
		}
		catch (Exception ex) {
			logger.warn(undeletedNode(key, node, ex.toString()), ex);
		}
	}

	private String undeletedNode(String key, QueuedNode node, String reason) {
		return "Could not delete the node of lock '" + AbbreviatedKey.of(key) + "' (" + node.path()
				+ ") at its release with ZooKeeper (" + connectString() + "): " + reason
				+ "; Curator keeps deleting it in the background, and ZooKeeper deletes it when the session ends";
	}

	private String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

}
