package dev.zklock.benchmarks;

import org.apache.curator.framework.CuratorFramework;

/**
 * A driver on a Curator client of its own, opened like every other client of the run,
 * whose ZooKeeper writes it counts, with its locks under a root node of its own.
 */
abstract class CuratorClientDriver implements LockDriver {

	private final ZooKeeperWrites writes = new ZooKeeperWrites();

	/**
	 * The driver's client, connected.
	 */
	protected final CuratorFramework client;

	/**
	 * The node under which the driver's locks live.
	 */
	protected final String rootPath;

	CuratorClientDriver(String connectString, String rootPath) {
		this.client = CuratorConnections.open(connectString, this.writes);
		this.rootPath = rootPath;
	}

	/**
	 * Opens one more client like the driver's own, whose writes the driver counts too;
	 * the caller closes it.
	 * @param connectString the ZooKeeper connect string
	 * @return the started, connected client
	 */
	protected CuratorFramework openAnotherClient(String connectString) {
		return CuratorConnections.open(connectString, this.writes);
	}

	/**
	 * The path of a key's node.
	 * @param key the lock key
	 * @return {@code root/key}
	 */
	protected String keyPath(String key) {
		return this.rootPath + "/" + key;
	}

	@Override
	public long writes() {
		return this.writes.count();
	}

	@Override
	public void close() {
		this.client.close();
	}

}
