package dev.zklock.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.StandardLockInternalsDriver;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.data.Stat;
import org.jspecify.annotations.Nullable;

/**
 * Curator's standard lock driver, except that it keeps the {@link Stat} of the lock node
 * it creates, so that the fencing token (the node's creation zxid) comes with the create
 * instead of costing another round trip. One driver serves every mutex of a registry; the
 * stat is kept for the thread that created the node, which is the acquiring thread.
 */
final class FencingLockDriver extends StandardLockInternalsDriver {

	private final ThreadLocal<CreatedLockNode> createdNodes = new ThreadLocal<>();

	@Override
	public String createsTheLock(CuratorFramework client, String path, byte @Nullable [] lockNodeBytes)
			throws Exception {
		Stat stat = new Stat();
		var create = client.create()
			.storingStatIn(stat)
			.creatingParentContainersIfNeeded()
			.withProtection()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL);
		String ourPath = (lockNodeBytes != null) ? create.forPath(path, lockNodeBytes) : create.forPath(path);
		this.createdNodes.set(new CreatedLockNode(ourPath, stat));
		return ourPath;
	}

	/**
	 * Hands over the node that the calling thread created last, and forgets it.
	 * @return the created node, or {@code null} if the thread created none
	 */
	@Nullable CreatedLockNode takeCreatedNode() {
		CreatedLockNode created = this.createdNodes.get();
		this.createdNodes.remove();
		return created;
	}

	/**
	 * A lock node as its create returned it. The stat is empty (zero czxid) when Curator
	 * found the node again after a connection loss instead of creating it.
	 *
	 * @param path the node's full path
	 * @param stat the node's stat from the create
	 */
	record CreatedLockNode(String path, Stat stat) {
	}

}
