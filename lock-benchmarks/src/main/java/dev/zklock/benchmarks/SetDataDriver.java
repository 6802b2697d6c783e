package dev.zklock.benchmarks;

import org.apache.zookeeper.KeeperException;

/**
 * The limit of the uncontended cycle, not a lock: one synchronous {@code setData} on the
 * key's node, which exists from the first cycle on, then the work. It is one ZooKeeper
 * write round trip, the least that any lock on ZooKeeper costs, sent by a Curator client
 * set up like the others.
 */
final class SetDataDriver extends CuratorClientDriver {

	private static final byte[] NO_DATA = new byte[0];

	SetDataDriver(String connectString, String rootPath) {
		super(connectString, rootPath);
	}

	@Override
	public void withLock(String key, Runnable work) throws Exception {
		String path = keyPath(key);
		try {
			this.client.setData().forPath(path, NO_DATA);
		}
		catch (KeeperException.NoNodeException ex) {
			this.client.create().creatingParentsIfNeeded().forPath(path, NO_DATA);
		}
		work.run();
	}

}
