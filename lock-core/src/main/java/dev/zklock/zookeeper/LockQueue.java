package dev.zklock.zookeeper;

import java.util.List;
import java.util.OptionalLong;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorClosedException;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * The queue of lock nodes under one key's node: the fair lock protocol that processes
 * share through ZooKeeper.
 * <p>
 * A contender enqueues an ephemeral sequential node, created with Curator's protection so
 * that a create whose reply was lost is found again (and one that was given up is deleted
 * in the background). Its turn comes when no node ahead of it blocks it, by the rules of
 * its {@link LockNodeKind}; until then it watches the one node it waits for, so a release
 * wakes one waiter, not all. A holder is a node, not a thread: whoever has the
 * {@link QueuedNode} may leave the queue.
 * <p>
 * Exclusive nodes are named like Curator's {@code InterProcessMutex} nodes, so the two
 * exclude each other on the same path. The key node is a container node, which ZooKeeper
 * removes once it is empty.
 */
final class LockQueue {

	private static final Logger logger = LoggerFactory.getLogger(LockQueue.class);

	private final CuratorFramework client;

	private final String keyPath;

	private final LockNodeCopies copies;

	LockQueue(CuratorFramework client, String keyPath) {
		this.client = client;
		this.keyPath = keyPath;
		this.copies = new LockNodeCopies(client, keyPath);
	}

	CuratorFramework client() {
		return this.client;
	}

	String keyPath() {
		return this.keyPath;
	}

	/**
	 * Creates a node at the end of the queue, and sends a read of the queue right behind
	 * the create. ZooKeeper answers a session's requests in order, so the read sees the
	 * new node, and the node's first look at the queue costs no round trip of its own.
	 * The node's stat comes with the create's reply, so the fencing token and the owner
	 * session cost no round trip either (unless Curator had to find the node again after
	 * a connection loss).
	 * <p>
	 * If the key's node is missing (the key's first lock, or ZooKeeper reaped the empty
	 * container), it is created, and the node with it, in one more round trip; Curator's
	 * own {@code creatingParentContainersIfNeeded} on the lock node would create the key
	 * node on Curator's single background thread, one key at a time for the whole
	 * process.
	 * @param kind the kind of node
	 * @param holder who asks, stored as the node's data
	 * @param pauses counts the pauses of this process, read before the first look is sent
	 * (see {@link LockLossDetector#pauses()})
	 * @param replies how long to wait for ZooKeeper's replies
	 * @return the node, with its first look at the queue
	 * @throws Exception if ZooKeeper fails or does not reply in time, or the thread is
	 * interrupted; a node created after the caller gave up is deleted in the background
	 */
	Arrival enqueue(LockNodeKind kind, HolderIdentity holder, LongSupplier pauses, ReplyWait replies) throws Exception {
		Arrival arrival = tryEnqueue(kind, holder, pauses, replies);
		while (arrival == null) {
			createKeyNode(replies);
			arrival = tryEnqueue(kind, holder, pauses, replies);
		}
		return arrival;
	}

	private void createKeyNode(ReplyWait replies) throws Exception {
		CompletableFuture<CuratorEvent> created = new CompletableFuture<>();
		this.client.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.CONTAINER)
			.inBackground((client, event) -> created.complete(event))
			.forPath(this.keyPath);
		KeeperException.Code result = KeeperException.Code.get(replies.await(created).getResultCode());
		// NODEEXISTS: created by another thread or process meanwhile
		if (result != KeeperException.Code.OK && result != KeeperException.Code.NODEEXISTS) {
			throw KeeperException.create(result, this.keyPath);
		}
	}

	private @Nullable Arrival tryEnqueue(LockNodeKind kind, HolderIdentity holder, LongSupplier pauses,
			ReplyWait replies) throws Exception {
		long checkedAt = pauses.getAsLong();
		CompletableFuture<CuratorEvent> created = new CompletableFuture<>();
		this.client.create()
			.withProtection()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.inBackground((client, event) -> created.complete(event))
			.forPath(ZKPaths.makePath(this.keyPath, kind.namePrefix()), holder.toBytes());
		QueueRead firstLook;
		CuratorEvent event;
		try {
			firstLook = QueueRead.start(this.client, this.keyPath, kind.waitsForAnyDeparture());
			event = replies.await(created);
		}
		catch (Exception ex) {
			created.thenAccept(this::abandonCreated);
			throw ex;
		}
		KeeperException.Code result = KeeperException.Code.get(event.getResultCode());
		if (result == KeeperException.Code.NONODE) {
			return null;
		}
		if (result != KeeperException.Code.OK) {
			throw KeeperException.create(result, event.getPath());
		}
		Stat stat = (event.getStat() != null) ? event.getStat() : statOfFoundAgain(event, replies);
		return new Arrival(queuedNode(event, kind, stat), firstLook, checkedAt);
	}

	/**
	 * The node just created; deleted in the background if its zxid fits no fencing token.
	 */
	private QueuedNode queuedNode(CuratorEvent created, LockNodeKind kind, Stat stat) {
		try {
			return new QueuedNode(created.getName(), kind, stat.getCzxid(), stat.getEphemeralOwner());
		}
		catch (IllegalStateException ex) {
			abandonCreated(created);
			throw ex;
		}
	}

	/**
	 * Reads the stat of a node that Curator found again after a connection loss, whose
	 * create's reply brought none. The node exists from here on: if the read fails, the
	 * node is deleted in the background, or it would block the key until the session
	 * ends.
	 */
	private Stat statOfFoundAgain(CuratorEvent created, ReplyWait replies) throws Exception {
		try {
			CompletableFuture<CuratorEvent> read = new CompletableFuture<>();
			this.client.checkExists().inBackground((client, event) -> read.complete(event)).forPath(created.getName());
			Stat stat = replies.await(read).getStat();
			if (stat == null) {
				throw new KeeperException.NoNodeException(created.getName());
			}
			return stat;
		}
		catch (Exception ex) {
			abandonCreated(created);
			throw ex;
		}
	}

	private void abandonCreated(CuratorEvent event) {
		if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
			deleteWithCopies(event.getName());
		}
	}

	/**
	 * Sends a new look at the queue for a node already in it, such as after an outage
	 * that its session outlived.
	 * @param node the node, enqueued by this queue
	 * @param pauses counts the pauses of this process, read before the look is sent
	 * @return the node with its new look at the queue
	 * @throws Exception if the read cannot be sent
	 */
	Arrival lookAgain(QueuedNode node, LongSupplier pauses) throws Exception {
		long checkedAt = pauses.getAsLong();
		return new Arrival(node, QueueRead.start(this.client, this.keyPath, node.kind().waitsForAnyDeparture()),
				checkedAt);
	}

	/**
	 * Waits until the node's turn comes, or the deadline passes. A watch also fires when
	 * the connection is lost; no further request is sent then, since Curator would give
	 * it up: the caller waits for the connection and looks at the queue again.
	 * @param arrival the node, enqueued by this queue, with its first look at the queue
	 * @param deadlineNanos the deadline, on the {@link System#nanoTime()} scale
	 * @param pauses counts the pauses of this process, read before each look at the queue
	 * is sent
	 * @param replies how long to wait for ZooKeeper's replies
	 * @return the pause count read before the look at the queue that showed the node's
	 * turn, or empty if the deadline passed first
	 * @throws KeeperException.NoNodeException if the node is gone: its session ended
	 * @throws LockNodeKind.ConflictException if the queue holds nodes of kinds that
	 * cannot be combined with the node's
	 * @throws KeeperException.ConnectionLossException if the client lost its connection
	 * @throws Exception if ZooKeeper fails, or the thread is interrupted
	 */
	OptionalLong awaitTurn(Arrival arrival, long deadlineNanos, LongSupplier pauses, ReplyWait replies)
			throws Exception {
		QueuedNode node = arrival.node();
		boolean watchQueue = node.kind().waitsForAnyDeparture();
		QueueRead read = arrival.firstLook();
		long checkedAt = arrival.checkedAt();
		while (true) {
			List<String> queue = (read == arrival.firstLook()) ? read.childrenIfRead(replies) : read.children(replies);
			if (queue != null) {
				this.copies.deleteCopies(node.name(), queue);
			}
			int position = (queue != null) ? queue.indexOf(node.name()) : -1;
			if (position < 0 && read == arrival.firstLook()) {
				requireConnection();
				checkedAt = pauses.getAsLong();
				read = QueueRead.start(this.client, this.keyPath, watchQueue);
				continue;
			}
			if (position < 0) {
				throw new KeeperException.NoNodeException(node.path());
			}
			String blocker = node.kind().blockerOf(queue, position);
			if (blocker == null) {
				return OptionalLong.of(checkedAt);
			}
			long remaining = deadlineNanos - System.nanoTime();
			if (remaining <= 0) {
				return OptionalLong.empty();
			}
			if (!watchQueue) {
				requireConnection();
			}
			boolean changed = watchQueue ? read.awaitChange(remaining)
					: BlockerWatch.awaitChange(this.client, ZKPaths.makePath(this.keyPath, blocker), remaining);
			if (!changed) {
				return OptionalLong.empty();
			}
			requireConnection();
			checkedAt = pauses.getAsLong();
			read = QueueRead.start(this.client, this.keyPath, watchQueue);
		}
	}

	private void requireConnection() throws KeeperException.ConnectionLossException {
		if (!this.client.getZookeeperClient().isConnected()) {
			throw new KeeperException.ConnectionLossException();
		}
	}

	/**
	 * Deletes a node in the background, retrying until ZooKeeper confirms it, without
	 * holding the caller up: for a node whose turn did not come. Copies that its create
	 * left behind are looked for and deleted too (see {@link LockNodeCopies}).
	 * @param node the node to delete
	 */
	void abandon(QueuedNode node) {
		deleteWithCopies(node.path());
	}

	/**
	 * Deletes a node and its copies in the background; while the client is disconnected,
	 * once it is connected again (see {@link #whenConnected}). If the session ended
	 * meanwhile, the node is gone already.
	 */
	private void deleteWithCopies(String path) {
		whenConnected(() -> {
			try {
				deleteInBackground(path);
				this.copies.deleteCopiesOf(path);
			}
			catch (Exception ex) {
				logger.warn("Could not start deleting the lock node {}; ZooKeeper deletes it when the session ends: {}",
						path, ex.toString());
			}
		});
	}

	/**
	 * Sends requests to ZooKeeper now if the client is connected, or else once it is
	 * connected again: Curator would give up a request sent into an outage, with an error
	 * and a stack trace in the log, where a request sent after it goes through.
	 * @param send what sends the requests, without waiting for their replies
	 */
	void whenConnected(Runnable send) {
		if (this.client.getZookeeperClient().isConnected()) {
			send.run();
			return;
		}
		AtomicBoolean sent = new AtomicBoolean();
		ConnectionStateListener onReconnection = new ConnectionStateListener() {

			@Override
			public void stateChanged(CuratorFramework client, ConnectionState newState) {
				if (newState.isConnected() && sent.compareAndSet(false, true)) {
					client.getConnectionStateListenable().removeListener(this);
					send.run();
				}
			}

		};
		this.client.getConnectionStateListenable().addListener(onReconnection);
		if (this.client.getZookeeperClient().isConnected()) {
			onReconnection.stateChanged(this.client, ConnectionState.RECONNECTED);
		}
	}

	private void deleteInBackground(String path) throws Exception {
		try {
			this.client.delete().quietly().guaranteed().inBackground().forPath(path);
		}
		catch (CuratorClosedException ex) {
			logger.debug("The client is closed, so the end of its session deletes the lock node {}", path);
		}
	}

	/**
	 * A node just created in a queue, with the read of the queue sent right behind it.
	 *
	 * @param node the node
	 * @param firstLook the read
	 * @param checkedAt the pause count read before the read was sent
	 */
	record Arrival(QueuedNode node, QueueRead firstLook, long checkedAt) {

	}

	/**
	 * A node in a lock queue.
	 *
	 * @param path the node's full path
	 * @param kind the node's kind
	 * @param czxid the node's creation zxid
	 * @param sessionId the ZooKeeper session that owns the node
	 */
	record QueuedNode(String path, LockNodeKind kind, long czxid, long sessionId) {

		/**
		 * Creates a node.
		 * @throws IllegalStateException if the node's zxid fits no fencing token
		 */
		QueuedNode {
			FencingTokens.of(czxid, 0);
		}

		/**
		 * The fencing token of a hold of the node.
		 * @param handOff how many holders had the node before this one
		 * @return the token
		 */
		long fencingToken(int handOff) {
			return FencingTokens.of(this.czxid, handOff);
		}

		String name() {
			return ZKPaths.getNodeFromPath(this.path);
		}

	}

}
