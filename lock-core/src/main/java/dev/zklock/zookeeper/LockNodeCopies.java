package dev.zklock.zookeeper;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.ProtectedUtils;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;

/**
 * Deletes the copies of a lock node that one create left behind. Lock nodes are created
 * with Curator's protection: a create that loses its connection is sent again, and the
 * node of the first one, if ZooKeeper applied it, is looked for by the protection id in
 * its name. When that look goes to a server that has not applied the first create yet,
 * both creates make a node: the acquisition knows one of them, and the other, ephemeral
 * in a session that lives on, would block the key until that session ends. The copies
 * share the known node's protection id, which no other create uses, and nothing but this
 * class ever deletes them.
 */
final class LockNodeCopies {

	private static final Logger logger = LoggerFactory.getLogger(LockNodeCopies.class);

	private final CuratorFramework client;

	private final String keyPath;

	LockNodeCopies(CuratorFramework client, String keyPath) {
		this.client = client;
		this.keyPath = keyPath;
	}

	/**
	 * Deletes, in the background, the copies of a node among a queue's nodes.
	 * @param nodeName the name of the node that the acquisition knows
	 * @param queue the names of the queue's nodes; the copies are removed from it
	 */
	void deleteCopies(String nodeName, List<String> queue) {
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
		if (copies != null) {
			copies.forEach((copy) -> delete(copy, nodeName));
			queue.removeAll(copies);
		}
	}

	/**
	 * Reads the queue in the background and deletes the copies of a node whose creation
	 * was given up; the node itself is deleted by the caller.
	 * @param nodePath the path of the node
	 */
	void deleteCopiesOf(String nodePath) {
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

	private void delete(String copy, String nodeName) {
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

}
