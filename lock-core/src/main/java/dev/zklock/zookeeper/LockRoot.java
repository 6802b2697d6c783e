package dev.zklock.zookeeper;

import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.curator.framework.CuratorFramework;

/**
 * The root path under which a registry's lock nodes live: the path of each key's node
 * under it, and the guard that keeps it in the hands of the registry's credentials.
 */
final class LockRoot {

	private final CuratorFramework client;

	private final String path;

	private final QueueTurns queueTurns;

	/**
	 * Creates the root of a registry.
	 * @param client the Curator client
	 * @param path the root path, {@link LockNodeNames#validRootPath valid}
	 * @param queueTurns the turns that check the guarded root before the first node is
	 * queued under it
	 */
	LockRoot(CuratorFramework client, String path, QueueTurns queueTurns) {
		this.client = client;
		this.path = path;
		this.queueTurns = queueTurns;
	}

	String path() {
		return this.path;
	}

	/**
	 * The path of the node that holds the lock of a key.
	 * @param key the lock key
	 * @return the key's node path, directly under the root path
	 * @throws IllegalArgumentException if the key is {@code null} or empty
	 */
	String pathOf(String key) {
		if (key == null || key.isEmpty()) {
			throw new IllegalArgumentException("Lock key must not be empty");
		}
		// a node name never holds '/', and the root path is valid and not '/'
		return this.path + '/' + LockNodeNames.nodeName(key);
	}

	/**
	 * Guards the root: it is created and checked before the first lock.
	 */
	void guard() {
		this.queueTurns.guardRoot(new RootGuard(this.client, this.path));
	}

	/**
	 * Creates the guarded root if need be and checks its ACL now, if the root is guarded,
	 * within the client's connection timeout (and the {@link ReplyWait#GRACE grace} of a
	 * reply).
	 * @throws IllegalStateException if the root's ACL is not the expected one, or
	 * ZooKeeper fails or cannot be reached in time
	 */
	void check() {
		RootGuard guard = this.queueTurns.rootGuard();
		if (guard == null) {
			return;
		}
		int connectionTimeout = this.client.getZookeeperClient().getConnectionTimeoutMs();
		long deadline = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(connectionTimeout);
		try {
			if (!this.client.blockUntilConnected(connectionTimeout, TimeUnit.MILLISECONDS)) {
				throw new IllegalStateException("Could not check the lock root " + this.path
						+ ": no connection to ZooKeeper (" + connectString() + ") within " + connectionTimeout + "ms");
			}
			guard.verify(new ReplyWait(this.client, deadline));
		}
		catch (IllegalStateException ex) {
			throw ex;
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while checking the lock root " + this.path, ex);
		}
		catch (TimeoutException ex) {
			throw new IllegalStateException("Could not check the lock root " + this.path + ": ZooKeeper ("
					+ connectString() + ") did not answer within " + connectionTimeout + "ms", ex);
		}
		catch (Exception ex) {
			throw new IllegalStateException("Could not check the lock root " + this.path + ": " + ex, ex);
		}
	}

	private String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

}
