package dev.zklock.zookeeper;

import org.jspecify.annotations.Nullable;

/**
 * A node in a key's lock queue as ZooKeeper sees it, for operators: whoever it belongs
 * to, in any process.
 *
 * @param node the node's name
 * @param type the lock type it asks for: {@code EXCLUSIVE}, {@code READ} or
 * {@code SEMAPHORE}
 * @param permits the number of permits of a semaphore, {@code 1} for other types
 * @param holding whether its turn has come (it holds the lock), rather than waiting
 * @param fencingToken the fencing token of its first holder, made of its creation zxid;
 * threads of its process that take it over get greater ones
 * @param sessionId the ZooKeeper session that owns it, in hexadecimal
 * @param holder who asked for it, or {@code null} if its data names nobody
 */
public record QueuedLockNode(String node, String type, int permits, boolean holding, long fencingToken,
		String sessionId, @Nullable HolderIdentity holder) {

}
