package dev.zklock.benchmarks;

import org.apache.curator.framework.CuratorFramework;

/**
 * A driver on a Curator client of its own, opened like every other client of the run,
 * whose ZooKeeper writes it counts.
 */
abstract class CuratorClientDriver implements LockDriver {

	private final ZooKeeperWrites writes = new ZooKeeperWrites();

	/**
	 * The driver's client, connected.
	 */
	protected final CuratorFramework client;

	CuratorClientDriver(String connectString) {
		this.client = CuratorConnections.open(connectString, this.writes);
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
