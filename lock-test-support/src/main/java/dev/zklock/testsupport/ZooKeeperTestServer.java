package dev.zklock.testsupport;

import java.util.Map;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.BeforeEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * A real ZooKeeper server on 127.0.0.1 for a test class (registered in a static field) or
 * for each test (registered in an instance field), with a short tick so that sessions
 * expire within seconds and a fast container reaper so that empty lock parents vanish
 * quickly. Clients made by {@link #newClient()} are closed with the server.
 */
public final class ZooKeeperTestServer
		implements BeforeAllCallback, AfterAllCallback, BeforeEachCallback, AfterEachCallback {

	/** Session timeout of test clients: four ticks of the test server. */
	public static final int SESSION_TIMEOUT_MILLIS = 2_000;

	private static final int TICK_TIME_MILLIS = 500;

	private final TestClients clients = new TestClients();

	private TestingServer server;

	private boolean perTest;

	@Override
	public void beforeAll(ExtensionContext context) throws Exception {
		start();
	}

	@Override
	public void beforeEach(ExtensionContext context) throws Exception {
		if (this.server == null) {
			this.perTest = true;
			start();
		}
	}

	@Override
	public void afterEach(ExtensionContext context) throws Exception {
		if (this.perTest) {
			close();
		}
	}

	@Override
	public void afterAll(ExtensionContext context) throws Exception {
		close();
	}

	private void start() throws Exception {
		System.setProperty("znode.container.checkIntervalMs", "200");
		InstanceSpec spec = new InstanceSpec(null, -1, -1, -1, true, -1, TICK_TIME_MILLIS, -1,
				Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1");
		this.server = new TestingServer(spec, true);
	}

	private void close() throws Exception {
		this.clients.close();
		if (this.server != null) {
			this.server.close();
			this.server = null;
		}
	}

	public String connectString() {
		return this.server.getConnectString();
	}

	/**
	 * A started and connected client with its own session.
	 * @return the client
	 * @throws InterruptedException if interrupted while connecting
	 */
	public CuratorFramework newClient() throws InterruptedException {
		return newClient(SESSION_TIMEOUT_MILLIS);
	}

	/**
	 * A started and connected client with its own session, of the given timeout (the
	 * server allows 1 to 10 seconds).
	 * @param sessionTimeoutMillis the session timeout
	 * @return the client
	 * @throws InterruptedException if interrupted while connecting
	 */
	public CuratorFramework newClient(int sessionTimeoutMillis) throws InterruptedException {
		return this.clients.connect(connectString(), sessionTimeoutMillis);
	}

	public void stop() throws Exception {
		this.server.stop();
	}

	public void restart() throws Exception {
		this.server.restart();
	}

}
