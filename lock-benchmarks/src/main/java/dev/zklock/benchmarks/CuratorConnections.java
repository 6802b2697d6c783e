package dev.zklock.benchmarks;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Opens the Curator clients of the drivers that need one and of the harness itself, with
 * the session, connection and retry settings that zklock uses by default, so that every
 * library talks to ZooKeeper the same way.
 */
final class CuratorConnections {

	private CuratorConnections() {
	}

	/**
	 * Opens a client and waits until it is connected.
	 * @param connectString the ZooKeeper connect string
	 * @return the started, connected client
	 */
	static CuratorFramework open(String connectString) {
		return open(connectString, new ZooKeeperWrites());
	}

	/**
	 * Opens a client that counts its writes, and waits until it is connected.
	 * @param connectString the ZooKeeper connect string
	 * @param writes counts the client's writes
	 * @return the started, connected client
	 */
	static CuratorFramework open(String connectString, ZooKeeperWrites writes) {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.zookeeperFactory(writes)
			.sessionTimeoutMs(60_000)
			.connectionTimeoutMs(15_000)
			.retryPolicy(new ExponentialBackoffRetry(50, 10, 500))
			.build();
		client.start();
		try {
			if (!client.blockUntilConnected(30, TimeUnit.SECONDS)) {
				client.close();
				throw new IllegalStateException("No connection to ZooKeeper at " + connectString);
			}
		}
		catch (InterruptedException ex) {
			client.close();
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while connecting to " + connectString, ex);
		}
		return client;
	}

}
