package dev.zklock.testsupport;

import java.util.List;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * Reads the children of a container node, such as a key's node or the lock root, once it
 * may be empty. The test server's reaper deletes empty containers every 200 ms, so such a
 * read must take a missing node for one without children.
 */
public final class ContainerNodes {

	private ContainerNodes() {
	}

	/**
	 * The children of a container node.
	 * @param client the client to read with
	 * @param path the container's path, such as {@code ZooKeeperLockRegistry.pathOf(key)}
	 * @return the names of its children, empty if the container was reaped or never
	 * created
	 * @throws Exception if ZooKeeper fails otherwise
	 */
	public static List<String> childrenOf(CuratorFramework client, String path) throws Exception {
		try {
			return client.getChildren().forPath(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return List.of();
		}
	}

}
