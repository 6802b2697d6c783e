package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.Locale;
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
	 * the deadline.
	 * <p>
	 * An acquisition that finds the client without a connection waits for it up to the
	 * longer of its wait time and the client's connection timeout: a short wait time
	 * means "do not wait for other holders", not "fail while a connection is being made".
	 * Once it waits in the queue, it rides out an outage until its deadline: while the
	 * client is disconnected it sends nothing (Curator would give such requests up, with
	 * an error in the log), and once the connection is back it looks at the queue again.
	 * If the session lasted, its node is still queued; if the session ended, the node is
	 * deleted and a new one queued in the new session.
	 * @param queue the key's queue
	 * @param key the lock key, for messages
	 * @param kind what the node asks for
	 * @param holder who asks
	 * @param waitTime the wait time, for messages
	 * @param deadline the deadline, on the {@link System#nanoTime()} scale
	 * @param lossDetector counts the pauses of this process (see
	 * {@link LockLossDetector#pauses()}) and the losses of the connection
	 * @return the turn of the node, with the pause count read before ZooKeeper showed it,
	 * or {@code null} if other holders kept the lock
	 * @throws LockAcquisitionException if ZooKeeper was not reachable or did not answer
	 * in time
	 * @throws Exception if ZooKeeper fails, or the thread is interrupted
	 */
	LockKey.@Nullable Turn take(LockQueue queue, String key, LockNodeKind kind, HolderIdentity holder,
			Duration waitTime, long deadline, LockLossDetector lossDetector) throws Exception {
		LongSupplier pauses = lossDetector::pauses;
		Outage outage = new Outage();
		long turnDeadline = awaitConnection(key, deadline, outage);
		QueuedNode node = null;
		try {
			while (true) {
				long connectionLossesSeen = lossDetector.connectionLosses();
				try {
					if (!isConnected()) {
						throw new KeeperException.ConnectionLossException();
					}
					ReplyWait replies = new ReplyWait(this.client, turnDeadline);
					LockQueue.Arrival arrival;
					if (node == null) {
						verifyRoot(key, replies);
						arrival = queue.enqueue(kind, holder, pauses, replies);
						node = arrival.node();
					}
					else {
						arrival = queue.lookAgain(node, pauses);
					}
					OptionalLong turnCheckedAt = queue.awaitTurn(arrival, turnDeadline, pauses, replies);
					if (turnCheckedAt.isEmpty()) {
						return null;
					}
					LockKey.Turn turn = new LockKey.Turn(node, 0, turnCheckedAt.getAsLong());
					node = null;
					return turn;
				}
				catch (KeeperException.NoNodeException ex) {
					node = sessionEnded(queue, node, key, waitTime, turnDeadline, ex);
				}
				catch (KeeperException ex) {
					if (!isConnectionFault(ex)) {
						throw ex;
					}
					awaitReconnection(key, waitTime, turnDeadline, outage, ex, lossDetector, connectionLossesSeen);
					if (node != null && node.sessionId() != currentSessionId()) {
						logger.debug(
								"The ZooKeeper session that queued for '{}' ended during an outage; queueing again",
								AbbreviatedKey.of(key));
						queue.abandon(node);
						node = null;
					}
				}
				catch (TimeoutException ex) {
					throw new LockAcquisitionException(key,
							"Could not acquire lock '" + AbbreviatedKey.of(key) + "' within " + waitTime.toMillis()
									+ "ms: ZooKeeper (" + connectString() + ") did not answer in time"
									+ outage.describe(),
							ex);
				}
			}
		}
		finally {
			if (node != null) {
				queue.abandon(node);
			}
		}
	}

	/**
	 * A lock node vanished while it waited: ZooKeeper ended the session that created it.
	 * The node is deleted in case it is there after all, and the caller queues again in
	 * the new session, within the same deadline.
	 * @return no node
	 */
	private @Nullable QueuedNode sessionEnded(LockQueue queue, @Nullable QueuedNode node, String key, Duration waitTime,
			long deadline, KeeperException.NoNodeException ex) {
		if (node != null) {
			queue.abandon(node);
		}
		if (System.nanoTime() - deadline >= 0) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + AbbreviatedKey.of(key) + "' within "
					+ waitTime.toMillis() + "ms: the ZooKeeper session that queued for it ended", ex);
		}
		logger.debug("The lock node of '{}' vanished while it waited; queueing again", AbbreviatedKey.of(key));
		return null;
	}

	/**
	 * Whether a reply tells that the request may not have reached ZooKeeper, or the
	 * session ended: the acquisition waits for the connection and goes on.
	 */
	private static boolean isConnectionFault(KeeperException ex) {
		return ex.code() == KeeperException.Code.CONNECTIONLOSS || ex.code() == KeeperException.Code.OPERATIONTIMEOUT
				|| ex.code() == KeeperException.Code.SESSIONEXPIRED;
	}

	/**
	 * Waits, sending nothing, until the client is connected again, or the deadline
	 * passes. A watch may learn of the lost connection before Curator does, so the wait
	 * first lets Curator announce the loss (up to the connection timeout, as a fault that
	 * came with no loss of the connection is announced never): until then its connection
	 * state may still read as connected.
	 * @throws LockAcquisitionException if the deadline passed first, naming how long of
	 * the wait time ZooKeeper could not be reached
	 */
	private void awaitReconnection(String key, Duration waitTime, long deadline, Outage outage, KeeperException fault,
			LockLossDetector lossDetector, long connectionLossesSeen) throws InterruptedException {
		long noticed = System.nanoTime();
		try {
			if (isConnected()) {
				long catchUp = Math.min(deadline - noticed,
						TimeUnit.MILLISECONDS.toNanos(this.client.getZookeeperClient().getConnectionTimeoutMs()));
				lossDetector.awaitConnectionLossAfter(connectionLossesSeen, catchUp);
			}
			while (!isConnected()) {
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0) {
					break;
				}
				this.client.blockUntilConnected((int) Math.min(Integer.MAX_VALUE, Math.max(1, toMillis(remaining))),
						TimeUnit.MILLISECONDS);
			}
		}
		finally {
			outage.add(System.nanoTime() - noticed);
		}
		if (System.nanoTime() - deadline >= 0) {
			String reason = isConnected()
					? "ZooKeeper (" + connectString() + ") failed: " + fault.code() + outage.describe()
					: "ZooKeeper (" + connectString() + ") could not be reached for " + outage.total() + " of it";
			throw new LockAcquisitionException(key, "Could not acquire lock '" + AbbreviatedKey.of(key) + "' within "
					+ waitTime.toMillis() + "ms: " + reason, null);
		}
	}

	private void verifyRoot(String key, ReplyWait replies) throws Exception {
		RootGuard guard = this.rootGuard;
		if (guard != null) {
			try {
				guard.verify(replies);
			}
			catch (IllegalStateException ex) {
				throw new LockAcquisitionException(key,
						"Could not acquire lock '" + AbbreviatedKey.of(key) + "': " + ex.getMessage(), ex);
			}
		}
	}

	/**
	 * Waits for a connection, up to the longer of the time to the deadline and the
	 * client's connection timeout.
	 * @return the deadline of the wait for a turn: the given one, or now if the
	 * connection came after it, so that a short wait still gets its one look at the queue
	 */
	private long awaitConnection(String key, long deadline, Outage outage) throws InterruptedException {
		if (isConnected()) {
			return deadline;
		}
		long start = System.nanoTime();
		long bound = Math.max(toMillis(deadline - start), this.client.getZookeeperClient().getConnectionTimeoutMs());
		boolean connected = this.client.blockUntilConnected((int) Math.min(Integer.MAX_VALUE, Math.max(1, bound)),
				TimeUnit.MILLISECONDS);
		long now = System.nanoTime();
		outage.add(now - start);
		if (!connected) {
			throw new LockAcquisitionException(key, "Could not acquire lock '" + AbbreviatedKey.of(key)
					+ "': no connection to ZooKeeper (" + connectString() + ") within " + bound + "ms", null);
		}
		return (now - deadline > 0) ? now : deadline;
	}

	private boolean isConnected() {
		return this.client.getZookeeperClient().isConnected();
	}

	private long currentSessionId() {
		try {
			return this.client.getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	private static long toMillis(long nanos) {
		return TimeUnit.NANOSECONDS.toMillis(nanos);
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
			logger.debug("Could not read who holds {}: {}", queue.keyPath(), ex.toString());
			return null;
		}
	}

	/**
	 * Deletes a held node without waiting for ZooKeeper: another process sees the lock
	 * free once the deletion is applied, and this session's next request on the key is
	 * applied after it. A node that is already gone is no error. While the client is
	 * disconnected, the deletion is sent once it is connected again (see
	 * {@link LockQueue#whenConnected}): if the session lasted, the node is deleted then;
	 * if it ended, ZooKeeper deleted the node with it. A deletion that fails is logged;
	 * Curator keeps deleting the node in the background, and ZooKeeper deletes it when
	 * the session ends.
	 * @param queue the node's queue
	 * @param node the node
	 * @param key the lock key, for messages
	 */
	void leave(LockQueue queue, QueuedNode node, String key) {
		queue.whenConnected(() -> sendDeletion(node, key));
	}

	private void sendDeletion(QueuedNode node, String key) {
		try {
			this.client.delete().quietly().guaranteed().inBackground((curator, deleted) -> {
				// a node that is gone, or whose session ended, needs no more deleting
				KeeperException.Code result = KeeperException.Code.get(deleted.getResultCode());
				if (result != KeeperException.Code.OK && result != KeeperException.Code.NONODE
						&& result != KeeperException.Code.SESSIONEXPIRED) {
					logUndeletedNode(key, node, result.toString());
				}
			}).forPath(node.path());
		}
		catch (Exception ex) {
			logUndeletedNode(key, node, ex.toString());
		}
	}

	private void logUndeletedNode(String key, QueuedNode node, String reason) {
		logger.warn(
				"Could not delete the node of lock '{}' ({}) at its release with ZooKeeper ({}): {}; Curator keeps "
						+ "deleting it in the background, and ZooKeeper deletes it when the session ends",
				AbbreviatedKey.of(key), node.path(), connectString(), reason);
	}

	private String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

	/**
	 * How long one acquisition went without a connection to ZooKeeper, for its messages;
	 * used by the acquiring thread only.
	 */
	private static final class Outage {

		private long nanos;

		void add(long elapsedNanos) {
			this.nanos += Math.max(0, elapsedNanos);
		}

		String total() {
			return String.format(Locale.ROOT, "%.1f s", this.nanos / 1e9);
		}

		/**
		 * The outage as the end of a message, or nothing if there was none.
		 */
		String describe() {
			return (this.nanos > 0) ? "; it could not be reached for " + total() + " of it" : "";
		}

	}

}
