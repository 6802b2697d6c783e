package dev.zklock.zookeeper;

import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;

/**
 * Waits for the one node ahead that blocks a waiting node's turn in a {@link LockQueue}
 * to go, so that a release wakes one waiter, not all.
 */
final class BlockerWatch {

	private BlockerWatch() {
	}

	/**
	 * Waits until the blocking node changes (in practice: is deleted). The watch is set
	 * with a read of the node's data, not with an existence check: a data watch is set
	 * only on a node that exists, and goes when the node does, while an existence check
	 * of a node already gone would leave a watch for its creation, which never comes for
	 * a sequential name, for as long as the session lives.
	 * @param client the client
	 * @param blockerPath the path of the blocking node
	 * @param remainingNanos how long to wait at most, for the read's reply too: a waiter
	 * whose time is up has its answer, the lock is held
	 * @return whether the node changed or was already gone; {@code false} if the time
	 * passed first
	 * @throws IllegalStateException if the node is not ephemeral, and so would never go
	 * @throws KeeperException.ConnectionLossException if the watch fired because the
	 * client lost its connection
	 */
	static boolean awaitChange(CuratorFramework client, String blockerPath, long remainingNanos) throws Exception {
		CountDownLatch blockerChanged = new CountDownLatch(1);
		AtomicBoolean connectionLost = new AtomicBoolean();
		CompletableFuture<CuratorEvent> watched = new CompletableFuture<>();
		client.getData().usingWatcher((Watcher) (event) -> {
			if (QueueRead.announcesConnectionLoss(event)) {
				connectionLost.set(true);
			}
			blockerChanged.countDown();
		}).inBackground((curator, event) -> watched.complete(event)).forPath(blockerPath);
		long deadline = System.nanoTime() + remainingNanos;
		CuratorEvent read;
		try {
			read = watched.get(remainingNanos, TimeUnit.NANOSECONDS);
		}
		catch (TimeoutException ex) {
			return false;
		}
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
					+ "from the lock root (see README)");
		}
		boolean changed = blockerChanged.await(deadline - System.nanoTime(), TimeUnit.NANOSECONDS);
		if (changed && connectionLost.get()) {
			throw new KeeperException.ConnectionLossException();
		}
		return changed;
	}

}
