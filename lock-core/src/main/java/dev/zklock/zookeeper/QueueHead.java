package dev.zklock.zookeeper;

import java.util.List;
import java.util.concurrent.CompletableFuture;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.utils.ZKPaths;
import org.apache.zookeeper.KeeperException;
import org.jspecify.annotations.Nullable;

/**
 * Reads who holds the node at the head of a key's {@link LockQueue}, for the message of a
 * wait that timed out.
 */
final class QueueHead {

	private QueueHead() {
	}

	/**
	 * Who holds the node at the head of the queue, read in the background.
	 * @param client the client
	 * @param keyPath the path of the key's node
	 * @return the holder, or {@code null} if the queue is empty, its head names none, or
	 * ZooKeeper fails
	 * @throws Exception if the read cannot be sent
	 */
	static CompletableFuture<@Nullable HolderIdentity> holderOf(CuratorFramework client, String keyPath)
			throws Exception {
		CompletableFuture<@Nullable String> headPath = new CompletableFuture<>();
		client.getChildren().inBackground((curator, event) -> {
			List<String> queue = (event.getResultCode() == KeeperException.Code.OK.intValue()) ? event.getChildren()
					: List.of();
			headPath.complete(queue.stream()
				.min(LockNodeSequence.QUEUE_ORDER)
				.map((head) -> ZKPaths.makePath(keyPath, head))
				.orElse(null));
		}).forPath(keyPath);
		return headPath.thenCompose((nodePath) -> holderOfNode(client, nodePath));
	}

	private static CompletableFuture<@Nullable HolderIdentity> holderOfNode(CuratorFramework client,
			@Nullable String nodePath) {
		CompletableFuture<@Nullable HolderIdentity> holder = new CompletableFuture<>();
		if (nodePath == null) {
			holder.complete(null);
			return holder;
		}
		try {
			client.getData()
				.inBackground((curator, event) -> holder.complete(HolderIdentity.fromBytes(event.getData())))
				.forPath(nodePath);
		}
		catch (Exception ex) {
			holder.complete(null);
		}
		return holder;
	}

}
