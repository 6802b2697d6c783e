package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.OptionalLong;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.function.LongSupplier;

import dev.zklock.LockAcquisitionException;
import dev.zklock.zookeeper.LockQueue.QueuedNode;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

/**
 * Takes turns in {@link LockQueue}s and gives them up, within deadlines. Curator retries
 * an operation that lost its connection for as long as its retry policy allows, which can
 * be far longer than a lock's wait time; the {@link OverdueInterrupter} cuts such work
 * short, and nodes whose turn did not come are deleted in the background.
 */
final class QueueTurns {

	private static final Log logger = LogFactory.getLog(QueueTurns.class);

	/**
	 * How long past its deadline an acquisition may take to finish its last ZooKeeper
	 * round trip before it is cut short.
	 */
	static final Duration ACQUISITION_GRACE = Duration.ofMillis(250);

	/**
	 * How long a release waits for ZooKeeper to confirm the deletion of the lock node
	 * before leaving it to Curator's background deletion.
	 */
	static final Duration RELEASE_TIMEOUT = Duration.ofSeconds(1);

	private final CuratorFramework client;

	private final OverdueInterrupter overdueInterrupter;

	QueueTurns(CuratorFramework client, OverdueInterrupter overdueInterrupter) {
		this.client = client;
		this.overdueInterrupter = overdueInterrupter;
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
	LockCohort.@Nullable Turn take(LockQueue queue, String key, LockNodeKind kind, LockHolder holder, Duration waitTime,
			long deadline, LongSupplier pauses) throws Exception {
		awaitConnection(key, waitTime, deadline);
		OverdueInterrupter.Watch watch = this.overdueInterrupter.watch(deadline + ACQUISITION_GRACE.toNanos());
		QueuedNode node = null;
		OptionalLong turnCheckedAt = OptionalLong.empty();
		Exception failure = null;
		try {
			LockQueue.Arrival arrival = queue.enqueue(kind, holder, pauses);
			node = arrival.node();
			turnCheckedAt = queue.awaitTurn(arrival, deadline, pauses);
		}
		catch (Exception ex) {
			failure = ex;
		}
		if (node != null && turnCheckedAt.isEmpty()) {
			abandon(queue, node, key);
		}
		boolean overdue = watch.end();
		if (failure == null) {
			return turnCheckedAt.isPresent() ? new LockCohort.Turn(node, 0, turnCheckedAt.getAsLong()) : null;
		}
		if (failure instanceof KeeperException.NoNodeException vanished) {
			return retryAfterSessionEnded(queue, key, kind, holder, waitTime, deadline, pauses, vanished);
		}
		if (overdue) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + key + "' within " + waitTime.toMillis()
					+ "ms: ZooKeeper (" + connectString() + ") did not answer in time", failure);
		}
		throw failure;
	}

	/**
	 * A lock node vanished while it waited: ZooKeeper ended the session that created it.
	 * Queue again in the new session, within the same deadline.
	 */
	private LockCohort.@Nullable Turn retryAfterSessionEnded(LockQueue queue, String key, LockNodeKind kind,
			LockHolder holder, Duration waitTime, long deadline, LongSupplier pauses,
			KeeperException.NoNodeException ex) throws Exception {
		if (System.nanoTime() - deadline >= 0) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + key + "' within " + waitTime.toMillis()
					+ "ms: the ZooKeeper session that queued for it ended", ex);
		}
		logger.debug("The lock node of '" + key + "' vanished while it waited; queueing again", ex);
		return take(queue, key, kind, holder, waitTime, deadline, pauses);
	}

	private void awaitConnection(String key, Duration waitTime, long deadline) throws InterruptedException {
		if (this.client.getZookeeperClient().isConnected()) {
			return;
		}
		long remaining = deadline - System.nanoTime();
		if (remaining <= 0 || !this.client.blockUntilConnected(
				(int) Math.min(Integer.MAX_VALUE, Math.max(1, TimeUnit.NANOSECONDS.toMillis(remaining))),
				TimeUnit.MILLISECONDS)) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + key + "': no connection to ZooKeeper ("
					+ connectString() + ") within " + waitTime.toMillis() + "ms", null);
		}
	}

	/**
	 * Describes who holds the head of a queue, for the message of a timed-out wait; gives
	 * up quietly if ZooKeeper does not answer within {@link #ACQUISITION_GRACE}.
	 * @param queue the queue
	 * @return the holder's description, or {@code null} if it cannot be told
	 */
	@Nullable String describeHead(LockQueue queue) {
		if (!this.client.getZookeeperClient().isConnected()) {
			return null;
		}
		OverdueInterrupter.Watch watch = this.overdueInterrupter.watch(System.nanoTime() + ACQUISITION_GRACE.toNanos());
		try {
			LockHolder head = queue.head();
			return (head != null) ? head.toString() : null;
		}
		catch (Exception ex) {
			logger.debug("Could not read who holds " + queue.keyPath(), ex);
			return null;
		}
		finally {
			watch.end();
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
			logger.warn("Could not start deleting the lock node of '" + key + "' (" + node.path()
					+ "); ZooKeeper deletes it when the session ends", ex);
		}
	}

	/**
	 * Deletes a held node, waiting at most {@link #RELEASE_TIMEOUT} for ZooKeeper to
	 * confirm it; an unconfirmed deletion is logged and goes on in the background, and so
	 * does every deletion once the registry is closed.
	 * @param queue the node's queue
	 * @param node the node
	 * @param key the lock key, for messages
	 */
	void leave(LockQueue queue, QueuedNode node, String key) {
		OverdueInterrupter.Watch watch;
		try {
			watch = this.overdueInterrupter.watch(System.nanoTime() + RELEASE_TIMEOUT.toNanos());
		}
		catch (RejectedExecutionException ex) {
			// the registry is closed, so nothing would cut a long wait short
			abandon(queue, node, key);
			return;
		}
		try {
			queue.leave(node);
		}
		catch (Exception ex) {
			logger.warn("Could not confirm the release of lock '" + key + "' with ZooKeeper (" + connectString()
					+ "); Curator keeps deleting its node in the background, and ZooKeeper deletes it when the "
					+ "session ends", ex);
		}
		finally {
			watch.end();
		}
	}

	private String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

}
