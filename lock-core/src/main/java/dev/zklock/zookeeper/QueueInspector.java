package dev.zklock.zookeeper;

import java.util.ArrayList;
import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.data.Stat;

/**
 * Reads a key's {@link LockQueue} for operators: every node in it, whoever it belongs to,
 * as a {@link QueuedLockNode}.
 */
final class QueueInspector {

	private QueueInspector() {
	}

	/**
	 * The queue's nodes as ZooKeeper sees them, in order.
	 * @param client the client
	 * @param keyPath the path of the key's node
	 * @return the nodes, empty if the key's node does not exist (never created, or reaped
	 * as an empty container)
	 * @throws Exception if ZooKeeper fails
	 */
	static List<QueuedLockNode> nodesOf(CuratorFramework client, String keyPath) throws Exception {
		List<String> queue;
		try {
			queue = client.getChildren().forPath(keyPath);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
		queue.sort(LockNodeSequence.QUEUE_ORDER);
		List<QueuedLockNode> nodes = new ArrayList<>(queue.size());
		for (int position = 0; position < queue.size(); position++) {
			String name = queue.get(position);
			Stat stat = new Stat();
			byte[] data;
			try {
				data = client.getData().storingStatIn(stat).forPath(ZKPaths.makePath(keyPath, name));
			}
			catch (KeeperException.NoNodeException ex) {
				continue;
			}
			LockNodeKind kind = LockNodeKind.ofNodeName(name);
			nodes.add(new QueuedLockNode(name, LockActivity.typeOf(kind), LockActivity.permitsOf(kind),
					turnHasCome(kind, queue, position), FencingTokens.of(stat.getCzxid(), 0),
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

}
