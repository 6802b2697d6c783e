package dev.zklock.testsupport;

import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;

import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * Base of the tests whose client talks to a ZooKeeper server of their own through a
 * {@link ReplyHoldingProxy}, with threads for the calls they run concurrently.
 */
public abstract class AbstractProxiedZooKeeperTests {

	@RegisterExtension
	protected final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	protected final ExecutorService threads = Executors.newCachedThreadPool();

	protected ReplyHoldingProxy proxy;

	protected CuratorFramework proxiedClient;

	@BeforeEach
	void connectThroughProxy() throws Exception {
		this.proxy = ReplyHoldingProxy.start(this.zookeeper.connectString());
		this.proxiedClient = this.proxy.newClient();
	}

	@AfterEach
	void close() throws Exception {
		this.threads.shutdownNow();
		this.proxy.close();
	}

}
