package dev.zklock.testsupport;

import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;

/**
 * Starts real ZooKeeper servers on 127.0.0.1 for tests: a short tick so that sessions can
 * expire within seconds, and a fast container reaper so that empty lock parents vanish
 * quickly.
 */
public final class ZooKeeperTestServer {

	/** Session timeout for test clients: the server's minimum with its tick time. */
	public static final int SESSION_TIMEOUT_MILLIS = 2_000;

	private static final int TICK_TIME_MILLIS = 500;

	private ZooKeeperTestServer() {
	}

	public static TestingServer start() throws Exception {
		System.setProperty("znode.container.checkIntervalMs", "200");
		InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, TICK_TIME_MILLIS, -1, Map.of(), "127.0.0.1");
		return new TestingServer(spec, true);
	}

	public static CuratorFramework client(TestingServer server) throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.getConnectString())
			.sessionTimeoutMs(SESSION_TIMEOUT_MILLIS)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new RetryOneTime(100))
			.build();
		client.start();
		client.blockUntilConnected();
		return client;
	}

}
