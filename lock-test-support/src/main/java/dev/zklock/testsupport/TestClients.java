package dev.zklock.testsupport;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;

/**
 * The ZooKeeper clients that a fixture makes for its tests: started, connected, and
 * closed with the fixture.
 */
final class TestClients implements AutoCloseable {

	private final List<CuratorFramework> clients = new CopyOnWriteArrayList<>();

	/**
	 * A started and connected client with its own session, retrying once after 100 ms.
	 * @param connectString where it connects
	 * @param sessionTimeoutMillis its session timeout
	 * @return the client
	 * @throws InterruptedException if interrupted while connecting
	 */
	CuratorFramework connect(String connectString, int sessionTimeoutMillis) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.sessionTimeoutMs(sessionTimeoutMillis)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new RetryOneTime(100))
			.build();
		this.clients.add(client);
		client.start();
		client.blockUntilConnected();
		return client;
	}

	/**
	 * Closes every client made so far.
	 */
	@Override
	public void close() {
		this.clients.forEach(CuratorFramework::close);
		this.clients.clear();
	}

}
