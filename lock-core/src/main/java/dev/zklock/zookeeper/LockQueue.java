package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import java.util.Optional;
import java.util.OptionalLong;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Consumer;
import java.util.function.LongSupplier;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockAcquisitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorClosedException;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.api.CuratorWatcher;
import org.apache.curator.framework.imps.ProtectedUtils;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.WatchedEvent;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * One key's queue of lock nodes in ZooKeeper: the ZooKeeper adapter for the fair lock
 * protocol that processes share. It knows nothing of the threads of this process: a
 * holder is a node, and whoever has the {@link LockNode} may leave the queue.
 * <p>
 * <b>Enqueue.</b> A contender creates an ephemeral sequential node under the key's node,
 * with Curator's protection, so that a create whose reply was lost is found again (and
 * one that was given up is deleted in the background), and sends a read of the queue
 * right behind the create. Exclusive nodes are named like Curator's
 * {@code InterProcessMutex} nodes, so the two exclude each other on the same path. The
 * key's node is a container node, which ZooKeeper removes once it is empty.
 * <p>
 * <b>Turn.</b> A node's turn comes when no node ahead of it blocks it, by the rules of
 * its {@link LockNodeKind}; the queue's order is the order of the sequence numbers that
 * ZooKeeper appends to the names, whatever their prefixes. Until its turn, a node watches
 * the one node it waits for, so a release wakes one waiter, not all; a node that may get
 * its turn when any node ahead leaves (a permit) watches the whole queue.
 * <p>
 * <b>Copies.</b> A create that loses its connection is sent again, and the node of the
 * first one, if ZooKeeper applied it, is looked for by the protection id in its name.
 * When that look goes to a server that has not applied the first create yet, both creates
 * make a node: the acquisition knows one of them, and the other, ephemeral in a session
 * that lives on, would block the key until that session ends. The copies share the known
 * node's protection id, which no other create uses; they are deleted whenever the queue
 * is read for the node, when the node is given up, and when a node whose create lost its
 * connection is released (a copy may turn up after the node's last look at the queue).
 * Nothing else ever deletes them.
 * <p>
 * <b>Waits.</b> Every wait ends by the acquisition's deadline, the waits for replies
 * within {@link LockRoot#awaitReply}. While the client is disconnected nothing is sent,
 * since Curator would give such a request up, with an error and a stack trace in the log:
 * the acquisition waits for the connection and looks at the queue again.
 */
final class LockQueue {

	/** Orders node names as their nodes stand in the queue. */
	static final Comparator<String> QUEUE_ORDER = Comparator.comparing(LockQueue::sequenceOf);

	private static final Logger logger = LoggerFactory.getLogger(LockQueue.class);

	private static final byte[] NO_DATA = {};

	private final LockRoot root;

	private final CuratorFramework client;

	private final String key;

	private final String keyPath;

	LockQueue(LockRoot root, String key) {
		this.root = root;
		this.client = root.client();
		this.key = key;
		this.keyPath = root.pathOf(key);
	}

	String keyPath() {
		return this.keyPath;
	}

	/**
	 * Waits for a ZooKeeper connection, enqueues a node and waits for its turn, all by
	 * the deadline; returns the turn, or {@code null} if other holders kept the lock.
	 * <p>
	 * An acquisition that finds the client without its first connection waits for it up
	 * to the longer of its wait time and the client's connection timeout: a short wait
	 * time at start-up means "do not wait for other holders", not "fail while the first
	 * connection is being made". Once the client was connected, an outage is waited out
	 * by the deadline only. Once it waits in the queue, it rides out an outage until its
	 * deadline: once the connection is back it looks at the queue again. If the session
	 * lasted, its node is still queued; if the session ended, the node is deleted and a
	 * new one queued in the new session. A guarded root is verified before the first node
	 * is queued.
	 * @throws LockAcquisitionException if ZooKeeper was not reachable or did not answer
	 * in time, or the root's guard failed
	 * @throws LockNodeKind.ConflictException if the queue holds nodes of kinds that
	 * cannot be combined with the node's
	 */
	@Nullable Turn take(LockNodeKind kind, HolderIdentity holder, Duration waitTime, long deadline, LockLossDetector lossDetector)
			throws Exception {
		LongSupplier pauses = lossDetector::pauses;
		Outage outage = new Outage();
		long turnDeadline = awaitConnection(waitTime, deadline, outage);
		LockNode node = null;
		try {
			while (true) {
				long connectionLossesSeen = lossDetector.connectionLosses();
				try {
					requireConnection();
					Arrival arrival;
					if (node == null) {
						verifyRoot(turnDeadline);
						arrival = enqueue(kind, holder, pauses, lossDetector::currentSessionId, turnDeadline);
						node = (lossDetector.connectionLosses() != connectionLossesSeen)
								? arrival.node().withCopiesPossible() : arrival.node();
						arrival = new Arrival(node, arrival.firstLook(), arrival.checkedAt());
					}
					else {
						long checkedAt = pauses.getAsLong();
						arrival = new Arrival(node, read(kind.waitsForAnyDeparture()), checkedAt);
					}
					OptionalLong turnCheckedAt = awaitTurn(arrival, turnDeadline, pauses);
					if (turnCheckedAt.isEmpty()) {
						return null;
					}
					Turn turn = new Turn(node, turnCheckedAt.getAsLong());
					node = null;
					return turn;
				}
				catch (KeeperException.NoNodeException ex) {
					node = sessionEnded(node, waitTime, turnDeadline, ex);
				}
				catch (KeeperException ex) {
					if (!isConnectionFault(ex)) {
						throw ex;
					}
					awaitReconnection(waitTime, turnDeadline, outage, ex, lossDetector, connectionLossesSeen);
					if (node != null && node.sessionId() != lossDetector.currentSessionId()) {
						logger.debug(
								"The ZooKeeper session that queued for '{}' ended during an outage; queueing again",
								AbbreviatedKey.of(this.key));
						abandon(node);
						node = null;
					}
				}
				catch (TimeoutException ex) {
					throw new LockAcquisitionException(this.key,
							"Could not acquire lock '" + AbbreviatedKey.of(this.key) + "' within " + waitTime.toMillis()
									+ "ms: ZooKeeper (" + this.root.connectString() + ") did not answer in time"
									+ outage.describe(),
							ex);
				}
			}
		}
		finally {
			if (node != null) {
				abandon(node);
			}
		}
	}

	/**
	 * Waits for a connection by the deadline, or for the first connection of the client
	 * up to the longer of the time to the deadline and the client's connection timeout.
	 * @return the deadline of the wait for a turn: the given one, or now if the first
	 * connection came after it, so that a short wait still gets its one look at the queue
	 */
	private long awaitConnection(Duration waitTime, long deadline, Outage outage) throws InterruptedException {
		if (isConnected()) {
			return deadline;
		}
		long start = System.nanoTime();
		boolean connectedBefore = this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs() > 0;
		long bound = connectedBefore ? Math.max(0, toMillis(deadline - start))
				: Math.max(toMillis(deadline - start), this.client.getZookeeperClient().getConnectionTimeoutMs());
		boolean connected = this.client.blockUntilConnected((int) Math.min(Integer.MAX_VALUE, Math.max(1, bound)),
				TimeUnit.MILLISECONDS);
		long now = System.nanoTime();
		outage.add(now - start);
		if (!connected) {
			throw new LockAcquisitionException(this.key, connectedBefore
					? "Could not acquire lock '" + AbbreviatedKey.of(this.key) + "' within " + waitTime.toMillis()
							+ "ms: no connection to ZooKeeper (" + this.root.connectString() + ")"
					: "Could not acquire lock '" + AbbreviatedKey.of(this.key) + "': no connection to ZooKeeper ("
							+ this.root.connectString() + ") within " + bound + "ms of starting",
					null);
		}
		return (now - deadline > 0) ? now : deadline;
	}

	private void verifyRoot(long deadline) throws Exception {
		try {
			this.root.verify(deadline);
		}
		catch (IllegalStateException ex) {
			throw new LockAcquisitionException(this.key,
					"Could not acquire lock '" + AbbreviatedKey.of(this.key) + "': " + ex.getMessage(), ex);
		}
	}

	/**
	 * Creates a node at the end of the queue, and sends a read of the queue right behind
	 * the create. ZooKeeper answers a session's requests in order, so the read sees the
	 * new node, and the node's first look at the queue costs no round trip of its own;
	 * nor do its fencing token and owner session, as its stat comes with the create's
	 * reply (unless Curator had to find the node again after a connection loss).
	 * <p>
	 * A key whose node the root does not know to exist (its first lock, or one reaped
	 * since) gets its node and the lock node in one transaction, in the same one round
	 * trip; a key node that the root believed to exist and was reaped meanwhile is
	 * created so in one more round trip, as is the root's node if it is missing.
	 * Curator's own {@code creatingParentContainersIfNeeded} on the lock node would
	 * create it on Curator's single background thread, one key at a time for the whole
	 * process. A node created after the caller gave up is deleted in the background.
	 */
	Arrival enqueue(LockNodeKind kind, HolderIdentity holder, LongSupplier pauses, LongSupplier sessions, long deadline)
			throws Exception {
		Arrival arrival = this.root.isKeyNodeKnown(this.keyPath) ? tryEnqueue(kind, holder, pauses, deadline) : null;
		if (arrival == null) {
			arrival = tryEnqueueWithKeyNode(kind, holder, pauses, sessions, deadline);
		}
		boolean keyNodeCreated = false;
		while (arrival == null) {
			if (keyNodeCreated && System.nanoTime() - deadline >= 0) {
				throw new TimeoutException("the key's node was reaped each time it was created");
			}
			createKeyNode(deadline);
			keyNodeCreated = true;
			arrival = tryEnqueue(kind, holder, pauses, deadline);
		}
		return arrival;
	}

	private void createKeyNode(long deadline) throws Exception {
		CompletableFuture<CuratorEvent> created = new CompletableFuture<>();
		this.client.create()
			.creatingParentContainersIfNeeded()
			.withMode(CreateMode.CONTAINER)
			.inBackground((client, event) -> created.complete(event))
			.forPath(this.keyPath, NO_DATA);
		KeeperException.Code result = KeeperException.Code.get(this.root.awaitReply(created, deadline).getResultCode());
		// NODEEXISTS: created by another thread or process meanwhile
		if (result != KeeperException.Code.OK && result != KeeperException.Code.NODEEXISTS) {
			throw KeeperException.create(result, this.keyPath);
		}
	}

	/** Enqueues a node, or returns {@code null} if the key's node is missing. */
	private @Nullable Arrival tryEnqueue(LockNodeKind kind, HolderIdentity holder, LongSupplier pauses, long deadline)
			throws Exception {
		long checkedAt = pauses.getAsLong();
		CompletableFuture<CuratorEvent> created = new CompletableFuture<>();
		this.client.create()
			.withProtection()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.inBackground((client, event) -> created.complete(event))
			.forPath(ZKPaths.makePath(this.keyPath, kind.namePrefix()), holder.toBytes());
		Read firstLook;
		CuratorEvent event;
		try {
			firstLook = read(kind.waitsForAnyDeparture());
			event = this.root.awaitReply(created, deadline);
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
		this.root.keyNodeExists(this.keyPath);
		boolean foundAgain = event.getStat() == null;
		Stat stat = foundAgain ? statOfFoundAgain(event.getName(), deadline) : event.getStat();
		return arrival(event.getName(), kind, stat.getCzxid(), stat.getEphemeralOwner(), foundAgain, firstLook,
				checkedAt);
	}

	/**
	 * Creates the key's node and a node at the end of its queue in one transaction, one
	 * write to ZooKeeper's log, and sends a read of the queue right behind it; returns
	 * {@code null} if the root's node is missing. If the key's node exists, the
	 * transaction creates nothing, and the node is queued in it one round trip later.
	 * <p>
	 * The lock node is named with a protection id, as Curator's protected creates are,
	 * for one reason: Curator sends a transaction again after a connection loss, and when
	 * an earlier sending created the nodes, a later one fails, as the key's node exists.
	 * The earlier sending's lock node is then found by the id and deleted. No later
	 * sending can create a second lock node, as it creates the key's node too. A
	 * transaction's reply names the lock node but carries no stat of it: its creation
	 * zxid is the transaction's, which the stat of the transaction's write of the key's
	 * node carries, and its session is the one that the client had before and after the
	 * transaction, or else is read from its stat.
	 */
	private @Nullable Arrival tryEnqueueWithKeyNode(LockNodeKind kind, HolderIdentity holder, LongSupplier pauses,
			LongSupplier sessions, long deadline) throws Exception {
		String protectedId = UUID.randomUUID().toString();
		String nodePath = ProtectedUtils.toProtectedZNodePath(ZKPaths.makePath(this.keyPath, kind.namePrefix()),
				protectedId);
		long checkedAt = pauses.getAsLong();
		long session = sessions.getAsLong();
		CompletableFuture<CuratorEvent> committed = new CompletableFuture<>();
		this.client.transaction()
			.inBackground((client, event) -> committed.complete(event))
			.forOperations(
					this.client.transactionOp().create().withMode(CreateMode.CONTAINER).forPath(this.keyPath, NO_DATA),
					this.client.transactionOp()
						.create()
						.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
						.forPath(nodePath, holder.toBytes()),
					this.client.transactionOp().setData().forPath(this.keyPath, NO_DATA));
		Read firstLook;
		CuratorEvent event;
		try {
			firstLook = read(kind.waitsForAnyDeparture());
			event = this.root.awaitReply(committed, deadline);
		}
		catch (Exception ex) {
			committed.thenAccept((late) -> deleteProtected(protectedId, null));
			throw ex;
		}
		KeeperException.Code result = KeeperException.Code.get(event.getResultCode());
		if (result == KeeperException.Code.NODEEXISTS) {
			this.root.keyNodeExists(this.keyPath);
			Arrival arrival = null;
			try {
				arrival = tryEnqueue(kind, holder, pauses, deadline);
				return arrival;
			}
			finally {
				// sent after this reply, the first look shows a node of an earlier
				// sending
				deleteProtected(protectedId, (arrival != null) ? arrival.firstLook().reply : null);
			}
		}
		if (result == KeeperException.Code.NONODE) {
			return null;
		}
		if (result != KeeperException.Code.OK) {
			deleteProtected(protectedId, null);
			throw KeeperException.create(result, nodePath);
		}
		this.root.keyNodeExists(this.keyPath);
		String created = event.getOpResults().get(1).getResultPath();
		boolean sameSession = session != 0 && sessions.getAsLong() == session;
		if (!sameSession) {
			Stat stat = statOfFoundAgain(created, deadline);
			return arrival(created, kind, stat.getCzxid(), stat.getEphemeralOwner(), true, firstLook, checkedAt);
		}
		long czxid = event.getOpResults().get(2).getResultStat().getMzxid();
		return arrival(created, kind, czxid, session, false, firstLook, checkedAt);
	}

	/**
	 * A node just created, with its first look at the queue; deleted if its zxid fits no
	 * token.
	 */
	private Arrival arrival(String path, LockNodeKind kind, long czxid, long sessionId, boolean copiesPossible,
			Read firstLook, long checkedAt) {
		try {
			return new Arrival(new LockNode(path, kind, czxid, sessionId, copiesPossible), firstLook, checkedAt);
		}
		catch (IllegalStateException ex) {
			deleteWithCopies(path);
			throw ex;
		}
	}

	/**
	 * Reads the stat of a node whose create's reply brought none (Curator found it again
	 * after a connection loss, or a transaction created it). If the read fails, the node
	 * is deleted in the background, or it would block the key until the session ends.
	 */
	private Stat statOfFoundAgain(String path, long deadline) throws Exception {
		try {
			CompletableFuture<CuratorEvent> read = new CompletableFuture<>();
			this.client.checkExists().inBackground((client, event) -> read.complete(event)).forPath(path);
			Stat stat = this.root.awaitReply(read, deadline).getStat();
			if (stat == null) {
				throw new KeeperException.NoNodeException(path);
			}
			return stat;
		}
		catch (Exception ex) {
			deleteWithCopies(path);
			throw ex;
		}
	}

	private void abandonCreated(CuratorEvent event) {
		if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
			deleteWithCopies(event.getName());
		}
	}

	/** Sends a read of the queue, watching the queue for its next change if asked. */
	Read read(boolean watch) throws Exception {
		Read read = new Read();
		var children = this.client.getChildren();
		(watch ? children.usingWatcher(read) : children).inBackground((client, event) -> read.reply.complete(event))
			.forPath(this.keyPath);
		return read;
	}

	/**
	 * Waits until the node's turn comes, or the deadline passes; returns the pause count
	 * read before the look at the queue that showed the turn, or empty. A watch also
	 * fires when the connection is lost; no further request is sent then, since Curator
	 * would give it up: the caller waits for the connection and looks at the queue again.
	 * @throws KeeperException.NoNodeException if the node is gone: its session ended
	 * @throws KeeperException.ConnectionLossException if the client lost its connection
	 */
	OptionalLong awaitTurn(Arrival arrival, long deadline, LongSupplier pauses) throws Exception {
		LockNode node = arrival.node();
		boolean watchQueue = node.kind().waitsForAnyDeparture();
		Read read = arrival.firstLook();
		long checkedAt = arrival.checkedAt();
		while (true) {
			List<String> queue = (read == arrival.firstLook()) ? read.childrenIfRead(deadline)
					: read.children(deadline);
			if (queue != null) {
				deleteCopies(node.name(), queue);
			}
			int position = (queue != null) ? queue.indexOf(node.name()) : -1;
			if (position < 0 && read == arrival.firstLook()) {
				// the first look failed, or was answered before the node existed
				requireConnection();
				checkedAt = pauses.getAsLong();
				read = read(watchQueue);
				continue;
			}
			if (position < 0) {
				throw new KeeperException.NoNodeException(node.path());
			}
			String blocker = node.kind().blockerOf(queue, position);
			if (blocker == null) {
				return OptionalLong.of(checkedAt);
			}
			long remaining = deadline - System.nanoTime();
			if (remaining <= 0) {
				return OptionalLong.empty();
			}
			if (!watchQueue) {
				requireConnection();
			}
			boolean changed = watchQueue ? read.awaitChange(remaining)
					: awaitBlocker(ZKPaths.makePath(this.keyPath, blocker), deadline);
			if (!changed) {
				return OptionalLong.empty();
			}
			requireConnection();
			checkedAt = pauses.getAsLong();
			read = read(watchQueue);
		}
	}

	/**
	 * Waits until the blocking node changes (in practice: is deleted) or is found gone;
	 * {@code false} if the deadline passes first: a waiter whose time is up has its
	 * answer, the lock is held. A read whose reply does not come by the deadline plus
	 * {@link LockRoot#GRACE} tells nothing of the lock: it throws a
	 * {@link TimeoutException}, as ZooKeeper did not answer. The watch is set with a read
	 * of the node's data, not an existence check: a data watch is set only on a node that
	 * exists and goes when the node does, while an existence check of a node already gone
	 * would leave a watch for its creation, which never comes for a sequential name, for
	 * as long as the session lives. A node that is not ephemeral, and so would never go,
	 * is an error.
	 */
	private boolean awaitBlocker(String blockerPath, long deadline) throws Exception {
		Read watched = new Read();
		this.client.getData()
			.usingWatcher(watched)
			.inBackground((client, event) -> watched.reply.complete(event))
			.forPath(blockerPath);
		CuratorEvent read = this.root.awaitReply(watched.reply, deadline);
		KeeperException.Code result = KeeperException.Code.get(read.getResultCode());
		if (result == KeeperException.Code.NONODE) {
			return true;
		}
		if (result != KeeperException.Code.OK) {
			throw KeeperException.create(result, blockerPath);
		}
		if (read.getStat().getEphemeralOwner() == 0) {
			throw new IllegalStateException("The lock node " + blockerPath + " ahead in the queue is not ephemeral: "
					+ "it belongs to no ZooKeeper session, so no lock client holds it, and it would block the key "
					+ "for ever. A client other than a lock client created it; delete it, and keep other clients "
					+ "from the lock root (see the reference guide's Security chapter)");
		}
		return watched.awaitChange(deadline - System.nanoTime());
	}

	/**
	 * A lock node vanished while it waited: ZooKeeper ended the session that created it.
	 * The node is deleted in case it is there after all, and the caller queues again,
	 * with no node, in the new session, within the same deadline.
	 */
	private @Nullable LockNode sessionEnded(@Nullable LockNode node, Duration waitTime, long deadline,
			KeeperException.NoNodeException ex) {
		if (node != null) {
			abandon(node);
		}
		if (System.nanoTime() - deadline >= 0) {
			throw new LockAcquisitionException(this.key, "Could not acquire lock '" + AbbreviatedKey.of(this.key)
					+ "' within " + waitTime.toMillis() + "ms: the ZooKeeper session that queued for it ended", ex);
		}
		logger.debug("The lock node of '{}' vanished while it waited; queueing again", AbbreviatedKey.of(this.key));
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
	 * Waits, sending nothing, until the client is connected again, or fails once the
	 * deadline passes, naming how long ZooKeeper could not be reached. A watch may learn
	 * of the lost connection before Curator does, so the wait first lets Curator announce
	 * the loss (up to the connection timeout, as a fault that came with no loss of the
	 * connection is never announced): until then its connection state may read connected.
	 */
	private void awaitReconnection(Duration waitTime, long deadline, Outage outage, KeeperException fault,
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
					? "ZooKeeper (" + this.root.connectString() + ") failed: " + fault.code() + outage.describe()
					: "ZooKeeper (" + this.root.connectString() + ") could not be reached for " + outage.total()
							+ " of it";
			throw new LockAcquisitionException(this.key, "Could not acquire lock '" + AbbreviatedKey.of(this.key)
					+ "' within " + waitTime.toMillis() + "ms: " + reason, null);
		}
	}

	/**
	 * Describes who holds the head of the queue, for the message of a wait that timed
	 * out, or {@code null} if it cannot be told; gives up quietly if ZooKeeper does not
	 * answer by the deadline plus {@link LockRoot#GRACE}, never holding the caller
	 * longer.
	 */
	@Nullable String describeHead(long deadline) {
		if (!isConnected()) {
			return null;
		}
		try {
			HolderIdentity head = holderOfHead()
				.get(Math.max(0, deadline + LockRoot.GRACE.toNanos() - System.nanoTime()), TimeUnit.NANOSECONDS);
			return (head != null) ? head.toString() : null;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return null;
		}
		catch (Exception ex) {
			logger.debug("Could not read who holds {}: {}", this.keyPath, ex.toString());
			return null;
		}
	}

	/**
	 * Who holds the node at the head of the queue, read in the background: {@code null}
	 * if the queue is empty, its head names none, or ZooKeeper fails.
	 */
	private CompletableFuture<@Nullable HolderIdentity> holderOfHead() throws Exception {
		CompletableFuture<@Nullable String> headPath = new CompletableFuture<>();
		this.client.getChildren().inBackground((client, event) -> {
			List<String> queue = (event.getResultCode() == KeeperException.Code.OK.intValue()) ? event.getChildren()
					: List.of();
			headPath.complete(
					queue.stream().min(QUEUE_ORDER).map((head) -> ZKPaths.makePath(this.keyPath, head)).orElse(null));
		}).forPath(this.keyPath);
		return headPath.thenCompose((nodePath) -> {
			CompletableFuture<@Nullable HolderIdentity> holder = new CompletableFuture<>();
			if (nodePath == null) {
				holder.complete(null);
				return holder;
			}
			try {
				this.client.getData()
					.inBackground((client, event) -> holder.complete(HolderIdentity.fromBytes(event.getData())))
					.forPath(nodePath);
			}
			catch (Exception ex) {
				holder.complete(null);
			}
			return holder;
		});
	}

	/**
	 * Reads the queue in the background and watches it until it changes, to tell
	 * {@code othersQueued} whether other nodes queue behind a held node: once the read
	 * answers, and {@code true} on any change afterwards. A read that fails tells
	 * nothing, and so tells {@code true}: the hand-off bounds apply.
	 */
	void watchBehind(LockNode held, Consumer<Boolean> othersQueued) throws Exception {
		String sequence = sequenceOf(held.name());
		this.client.getChildren()
			.usingWatcher((CuratorWatcher) (event) -> othersQueued.accept(true))
			.inBackground((client, event) -> {
				if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
					othersQueued.accept(event.getChildren()
						.stream()
						.anyMatch((child) -> sequenceOf(child).compareTo(sequence) > 0));
				}
				else {
					othersQueued.accept(true);
				}
			})
			.forPath(this.keyPath);
	}

	/**
	 * The queue's nodes as ZooKeeper sees them, in order, whoever they belong to, for
	 * operators; empty if the key's node does not exist (never created, or reaped).
	 */
	List<QueuedLockNode> nodes() throws Exception {
		List<String> queue;
		try {
			queue = this.client.getChildren().forPath(this.keyPath);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		queue.sort(QUEUE_ORDER);
		List<QueuedLockNode> nodes = new ArrayList<>(queue.size());
		for (int position = 0; position < queue.size(); position++) {
			String name = queue.get(position);
			Stat stat = new Stat();
			byte[] data;
			try {
				data = this.client.getData().storingStatIn(stat).forPath(ZKPaths.makePath(this.keyPath, name));
			}
			catch (KeeperException.NoNodeException ex) {
				continue;
			}
			LockNodeKind kind = LockNodeKind.ofNodeName(name);
			nodes.add(new QueuedLockNode(name, LockActivity.typeOf(kind), LockActivity.permitsOf(kind),
					turnHasCome(kind, queue, position), LockNode.fencingTokenOf(stat.getCzxid(), 0),
					Long.toHexString(stat.getEphemeralOwner()), HolderIdentity.fromBytes(data)));
		}
		return nodes;
	}

	private static boolean turnHasCome(LockNodeKind kind, List<String> queue, int position) {
		try {
			return kind.blockerOf(queue, position) == null;
		}
		catch (LockNodeKind.ConflictException ex) {
			return false;
		}
	}

	/**
	 * Deletes a held node without waiting for ZooKeeper: another process sees the lock
	 * free once the deletion is applied, and this session's next request on the key is
	 * applied after it. A node already gone is no error. While the client is
	 * disconnected, the deletion is sent once it is connected again
	 * ({@link #whenConnected}): if the session ended meanwhile, ZooKeeper deleted the
	 * node with it. A failed deletion is logged; Curator keeps deleting in the
	 * background, and ZooKeeper deletes the node when the session ends. The copies of a
	 * node whose create lost its connection are looked for and deleted too.
	 */
	void release(LockNode node) {
		whenConnected(() -> {
			try {
				this.client.delete().quietly().guaranteed().inBackground((curator, deleted) -> {
					// a node that is gone, or whose session ended, needs no more deleting
					KeeperException.Code result = KeeperException.Code.get(deleted.getResultCode());
					if (result != KeeperException.Code.OK && result != KeeperException.Code.NONODE
							&& result != KeeperException.Code.SESSIONEXPIRED) {
						logUndeletedNode(node, result.toString());
					}
				}).forPath(node.path());
				if (node.copiesPossible()) {
					deleteCopiesOf(node.path());
				}
			}
			catch (Exception ex) {
				logUndeletedNode(node, ex.toString());
			}
		});
	}

	private void logUndeletedNode(LockNode node, String reason) {
		logger.warn(
				"Could not delete the node of lock '{}' ({}) at its release with ZooKeeper ({}): {}; Curator keeps "
						+ "deleting it in the background, and ZooKeeper deletes it when the session ends",
				AbbreviatedKey.of(this.key), node.path(), this.root.connectString(), reason);
	}

	/**
	 * Deletes a node whose turn did not come, and the copies its create left behind, in
	 * the background, retrying until ZooKeeper confirms, without holding the caller up.
	 */
	void abandon(LockNode node) {
		deleteWithCopies(node.path());
	}

	/**
	 * Deletes a node and its copies in the background, once connected (see
	 * {@link #whenConnected}); if the session ended meanwhile, the node is gone already.
	 */
	private void deleteWithCopies(String path) {
		whenConnected(() -> {
			try {
				this.client.delete().quietly().guaranteed().inBackground().forPath(path);
				deleteCopiesOf(path);
			}
			catch (CuratorClosedException ex) {
				logger.debug("The client is closed, so the end of its session deletes the lock node {}", path);
			}
			catch (Exception ex) {
				logger.warn("Could not start deleting the lock node {}; ZooKeeper deletes it when the session ends: {}",
						path, ex.toString());
			}
		});
	}

	/**
	 * Reads the queue in the background and deletes the copies of a node whose creation
	 * was given up; the node itself is deleted by the caller.
	 */
	private void deleteCopiesOf(String nodePath) {
		String nodeName = ZKPaths.getNodeFromPath(nodePath);
		try {
			this.client.getChildren().inBackground((client, event) -> {
				if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
					deleteCopies(nodeName, new ArrayList<>(event.getChildren()));
				}
			}).forPath(this.keyPath);
		}
		catch (Exception ex) {
			logger.debug("Could not look for copies of the lock node {}: {}", nodePath, ex.toString());
		}
	}

	/**
	 * Deletes in the background the lock node named with a protection id, if there is
	 * one: the node of a transaction whose reply came too late or told of a fault, or one
	 * that an earlier sending of a transaction made. The node is looked for in a read of
	 * the queue sent after that reply, or else in one sent once connected.
	 */
	private void deleteProtected(String protectedId, @Nullable CompletableFuture<CuratorEvent> laterLook) {
		if (laterLook == null) {
			whenConnected(() -> {
				try {
					this.client.getChildren()
						.inBackground((client, event) -> deleteProtectedIn(protectedId, event))
						.forPath(this.keyPath);
				}
				catch (CuratorClosedException ex) {
					logger.debug("The client is closed, so the end of its session deletes the lock node of {}",
							protectedId);
				}
				catch (Exception ex) {
					logger.warn("Could not look for the lock node of {}; ZooKeeper deletes it when the session "
							+ "ends: {}", protectedId, ex.toString());
				}
			});
			return;
		}
		laterLook.thenAccept((event) -> {
			if (event.getResultCode() == KeeperException.Code.OK.intValue()) {
				deleteProtectedIn(protectedId, event);
			}
			else {
				deleteProtected(protectedId, null);
			}
		});
	}

	/**
	 * Deletes in the background the lock node of a protection id found in a read of the
	 * queue.
	 */
	private void deleteProtectedIn(String protectedId, CuratorEvent look) {
		if (look.getResultCode() != KeeperException.Code.OK.intValue()) {
			return;
		}
		String protectedPrefix = ProtectedUtils.getProtectedPrefix(protectedId);
		for (String name : look.getChildren()) {
			if (name.startsWith(protectedPrefix)) {
				String path = ZKPaths.makePath(this.keyPath, name);
				logger.warn("Deleting {}, a lock node whose acquisition did not learn of it in time, or made when its "
						+ "transaction was sent again after a connection loss; it would have blocked the key until "
						+ "this ZooKeeper session ends", path);
				try {
					this.client.delete().quietly().guaranteed().inBackground().forPath(path);
				}
				catch (Exception ex) {
					logger.warn("Could not start deleting {}; ZooKeeper deletes it when the session ends: {}", path,
							ex.toString());
				}
			}
		}
	}

	/**
	 * Deletes, in the background, the copies of a node among the queue's nodes, and
	 * removes them from the list.
	 */
	private void deleteCopies(String nodeName, List<String> queue) {
		Optional<String> id = ProtectedUtils.extractProtectedId(nodeName);
		if (id.isEmpty()) {
			return;
		}
		String protectedPrefix = ProtectedUtils.getProtectedPrefix(id.get());
		List<String> copies = null;
		for (String name : queue) {
			if (name.startsWith(protectedPrefix) && !name.equals(nodeName)) {
				copies = (copies != null) ? copies : new ArrayList<>();
				copies.add(name);
			}
		}
		if (copies == null) {
			return;
		}
		for (String copy : copies) {
			String path = ZKPaths.makePath(this.keyPath, copy);
			logger.warn(
					"Deleting {}, a second lock node made by the create of {} when it was sent again after a "
							+ "connection loss; it would have blocked the key until this ZooKeeper session ends",
					path, nodeName);
			try {
				this.client.delete().quietly().guaranteed().inBackground().forPath(path);
			}
			catch (Exception ex) {
				logger.warn("Could not start deleting {}; ZooKeeper deletes it when the session ends: {}", path,
						ex.toString());
			}
		}
		queue.removeAll(copies);
	}

	/**
	 * Sends requests to ZooKeeper now if the client is connected, or else once it is
	 * connected again: Curator would give up a request sent into an outage, with an error
	 * and a stack trace in the log, where a request sent after it goes through.
	 */
	private void whenConnected(Runnable send) {
		if (isConnected()) {
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
		if (isConnected()) {
			onReconnection.stateChanged(this.client, ConnectionState.RECONNECTED);
		}
	}

	private boolean isConnected() {
		return this.client.getZookeeperClient().isConnected();
	}

	private void requireConnection() throws KeeperException.ConnectionLossException {
		if (!isConnected()) {
			throw new KeeperException.ConnectionLossException();
		}
	}

	private static long toMillis(long nanos) {
		return TimeUnit.NANOSECONDS.toMillis(nanos);
	}

	/** The sequence number ZooKeeper appends to a node's name: the queue's order. */
	private static String sequenceOf(String nodeName) {
		return nodeName.substring(Math.max(0, nodeName.length() - LockNodeKind.SEQUENCE_LENGTH));
	}

	/**
	 * Whether a watch fired because the client lost its connection (or its session),
	 * rather than for a change of the watched node.
	 */
	private static boolean announcesConnectionLoss(WatchedEvent event) {
		return event.getType() == Watcher.Event.EventType.None
				&& event.getState() != Watcher.Event.KeeperState.SyncConnected
				&& event.getState() != Watcher.Event.KeeperState.ConnectedReadOnly;
	}

	/**
	 * A node's turn, as ZooKeeper showed it.
	 *
	 * @param node the node whose turn came
	 * @param checkedAt the {@link LockLossDetector#pauses() pause count} read before
	 * ZooKeeper was asked: the turn stands only if no pause was counted since
	 */
	record Turn(LockNode node, long checkedAt) {

	}

	/**
	 * A node just created in the queue, with the read of the queue sent right behind it
	 * ({@code firstLook}) and the pause count read before that read was sent.
	 */
	record Arrival(LockNode node, Read firstLook, long checkedAt) {

	}

	/**
	 * One read sent in the background, of the queue or of a node in it, with the watch
	 * that it may set for the next change.
	 */
	final class Read implements Watcher {

		private final CompletableFuture<CuratorEvent> reply = new CompletableFuture<>();

		private final CountDownLatch changed = new CountDownLatch(1);

		private volatile boolean connectionLost;

		@Override
		public void process(WatchedEvent event) {
			if (announcesConnectionLoss(event)) {
				this.connectionLost = true;
			}
			this.changed.countDown();
		}

		/**
		 * The names of the queue's nodes, in queue order, waiting for the reply if need
		 * be (see {@link LockRoot#awaitReply}); a failed read throws its
		 * {@link KeeperException}.
		 */
		List<String> children(long deadline) throws Exception {
			CuratorEvent event = LockQueue.this.root.awaitReply(this.reply, deadline);
			KeeperException.Code result = KeeperException.Code.get(event.getResultCode());
			if (result != KeeperException.Code.OK) {
				throw KeeperException.create(result, event.getPath());
			}
			List<String> sorted = new ArrayList<>(event.getChildren());
			sorted.sort(QUEUE_ORDER);
			return sorted;
		}

		/** The names of the queue's nodes, or {@code null} if the read failed. */
		@Nullable List<String> childrenIfRead(long deadline) throws Exception {
			try {
				return children(deadline);
			}
			catch (KeeperException ex) {
				return null;
			}
		}

		/**
		 * Waits for the read node to change, if the read watches it; returns whether it
		 * changed in time. A watch fired because the client lost its connection throws a
		 * {@link KeeperException.ConnectionLossException}: ZooKeeper's event reaches the
		 * watch possibly before Curator's connection state, so a request sent now could
		 * go out into the outage.
		 */
		boolean awaitChange(long timeoutNanos) throws KeeperException.ConnectionLossException, InterruptedException {
			boolean fired = this.changed.await(timeoutNanos, TimeUnit.NANOSECONDS);
			if (fired && this.connectionLost) {
				throw new KeeperException.ConnectionLossException();
			}
			return fired;
		}

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

		/** The outage as the end of a message, or nothing if there was none. */
		String describe() {
			return (this.nanos > 0) ? "; it could not be reached for " + total() + " of it" : "";
		}

	}

}
