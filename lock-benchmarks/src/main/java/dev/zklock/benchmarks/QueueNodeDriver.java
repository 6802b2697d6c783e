package dev.zklock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.ZooKeeper;

/**
 * The protocol floor of an uncontended acquisition, not a lock: zklock's uncontended
 * protocol with none of its work, on the raw ZooKeeper handle of a Curator client set up
 * like the others. A cycle sends an {@code EPHEMERAL_SEQUENTIAL} create under the key's
 * node and a {@code getChildren} of the key's node back to back, waits for both replies,
 * checks that its node sorts first, runs the work, and sends the delete without waiting
 * for its reply. The key's node is persistent, created with its parents by the first
 * cycle, so that every later cycle sends exactly two writes. A delete that failed would
 * leave a node that sorts before the next cycle's, which then fails.
 * <p>
 * With the property {@code sessions} (1 by default) the driver opens that many clients,
 * each a ZooKeeper session, and sends each key's requests on the session its hash picks.
 * ZooKeeper answers one session's requests in order, so with one session a list waits for
 * every write sent before it, for whatever key; with more it waits for those of its own
 * session only.
 */
final class QueueNodeDriver extends CuratorClientDriver {

	private static final String SESSIONS = "sessions";

	private static final byte[] NO_DATA = new byte[0];

	private static final AsyncCallback.VoidCallback NOT_AWAITED = (result, path, context) -> {
	};

	private final List<CuratorFramework> sessions = new ArrayList<>();

	private QueueNodeDriver(String connectString, String rootPath, int sessions) {
		super(connectString, rootPath);
		this.sessions.add(this.client);
		while (this.sessions.size() < sessions) {
			this.sessions.add(openAnotherClient(connectString));
		}
	}

	/**
	 * Connects the protocol floor.
	 * @param connectString the ZooKeeper connect string
	 * @param rootPath the node under which the keys' nodes live
	 * @param properties the variant's properties: {@code sessions} or none
	 * @return the connected driver
	 */
	static QueueNodeDriver open(String connectString, String rootPath, Map<String, String> properties) {
		return new QueueNodeDriver(connectString, rootPath, sessions(properties));
	}

	/**
	 * Reads the number of sessions from a variant's properties.
	 * @param properties the properties
	 * @return the number, 1 when not given
	 * @throws IllegalArgumentException for another property or a number below 1
	 */
	static int sessions(Map<String, String> properties) {
		Set<String> unknown = new TreeSet<>(properties.keySet());
		unknown.remove(SESSIONS);
		if (!unknown.isEmpty()) {
			throw new IllegalArgumentException("queue-node takes only the property '" + SESSIONS + "', not " + unknown);
		}
		String value = properties.getOrDefault(SESSIONS, "1");
		try {
			int count = Integer.parseInt(value);
			if (count >= 1) {
				return count;
			}
		}
		catch (NumberFormatException ex) {
			// refused below
		}
		throw new IllegalArgumentException(
				"queue-node's property '" + SESSIONS + "' must be a whole number of at least 1, not '" + value + "'");
	}

	@Override
	public void withLock(String key, Runnable work) throws Exception {
		String keyPath = keyPath(key);
		CuratorFramework session = this.sessions.get(Math.floorMod(key.hashCode(), this.sessions.size()));
		ZooKeeper zooKeeper = session.getZookeeperClient().getZooKeeper();
		QueueReplies replies = QueueReplies.send(zooKeeper, keyPath);
		if (!replies.await(WAIT_TIME)) {
			session.create().creatingParentsIfNeeded().forPath(keyPath, NO_DATA);
			replies = QueueReplies.send(zooKeeper, keyPath);
			if (!replies.await(WAIT_TIME)) {
				throw new KeeperException.NoNodeException(keyPath);
			}
		}
		String node = replies.node();
		String first = keyPath + "/" + Collections.min(replies.children());
		if (!first.equals(node)) {
			zooKeeper.delete(node, -1, NOT_AWAITED, null);
			throw new IllegalStateException("The protocol floor measures the uncontended cycle only, but " + first
					+ " was queued before " + node);
		}
		work.run();
		zooKeeper.delete(node, -1, NOT_AWAITED, null);
	}

	@Override
	public void close() {
		this.sessions.subList(1, this.sessions.size()).forEach(CuratorFramework::close);
		super.close();
	}

	/**
	 * The replies to a cycle's create and list, sent back to back: ZooKeeper answers a
	 * session's requests in order, so the list includes the node just created. The
	 * callbacks write the fields before the latch counts down, and they are read once it
	 * has opened.
	 */
	private static final class QueueReplies implements AsyncCallback.StringCallback, AsyncCallback.ChildrenCallback {

		private final CountDownLatch replied = new CountDownLatch(2);

		private final String keyPath;

		private int createResult;

		private int listResult;

		private String node = "";

		private List<String> children = List.of();

		private QueueReplies(String keyPath) {
			this.keyPath = keyPath;
		}

		static QueueReplies send(ZooKeeper zooKeeper, String keyPath) {
			QueueReplies replies = new QueueReplies(keyPath);
			zooKeeper.create(keyPath + "/lock-", NO_DATA, ZooDefs.Ids.OPEN_ACL_UNSAFE, CreateMode.EPHEMERAL_SEQUENTIAL,
					replies, null);
			zooKeeper.getChildren(keyPath, false, replies, null);
			return replies;
		}

		@Override
		public void processResult(int result, String path, Object context, String name) {
			this.node = name;
			this.createResult = result;
			this.replied.countDown();
		}

		@Override
		public void processResult(int result, String path, Object context, List<String> children) {
			this.children = children;
			this.listResult = result;
			this.replied.countDown();
		}

		/**
		 * Waits for both replies.
		 * @param timeout the longest wait
		 * @return false when the key's node does not exist, true when both succeeded
		 * @throws KeeperException if a request failed otherwise
		 * @throws InterruptedException if the thread is interrupted
		 */
		boolean await(Duration timeout) throws KeeperException, InterruptedException {
			if (!this.replied.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("ZooKeeper did not reply within " + timeout);
			}
			KeeperException.Code created = KeeperException.Code.get(this.createResult);
			if (created == KeeperException.Code.NONODE) {
				return false;
			}
			if (created != KeeperException.Code.OK) {
				throw KeeperException.create(created, this.keyPath);
			}
			KeeperException.Code listed = KeeperException.Code.get(this.listResult);
			if (listed != KeeperException.Code.OK) {
				throw KeeperException.create(listed, this.keyPath);
			}
			return true;
		}

		String node() {
			return this.node;
		}

		List<String> children() {
			return this.children;
		}

	}

}
