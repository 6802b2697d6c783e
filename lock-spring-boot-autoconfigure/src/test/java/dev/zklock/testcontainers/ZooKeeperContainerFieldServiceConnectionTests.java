package dev.zklock.testcontainers;

import java.time.Duration;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperConnectionDetails;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The way tests use the starter with Testcontainers: a static {@code @ServiceConnection}
 * container field whose image is {@code zookeeper}, so the connection name comes from the
 * image. The container is a stand-in for a real ZooKeeper server in this JVM, so this
 * runs without Docker.
 */
@SpringBootTest(classes = ZooKeeperContainerFieldServiceConnectionTests.LockConfiguration.class,
		properties = "distributed-lock.zookeeper.connect-string=127.0.0.1:1")
class ZooKeeperContainerFieldServiceConnectionTests {

	@RegisterExtension
	static final ZooKeeperTestServer server = new ZooKeeperTestServer();

	@ServiceConnection
	static final InProcessZooKeeperContainer zookeeper = new InProcessZooKeeperContainer("zookeeper:3.9.4",
			ZooKeeperContainerFieldServiceConnectionTests::serverPort);

	@Autowired
	ZooKeeperConnectionDetails connectionDetails;

	@Autowired
	LockTemplate lockTemplate;

	@Test
	void theContainerFieldSuppliesTheConnection() {
		assertThat(this.connectionDetails.getConnectString()).isEqualTo(server.connectString());
		long token = this.lockTemplate.execute("field", Duration.ofSeconds(10), (lock) -> lock.fencingToken());
		assertThat(token).isPositive();
	}

	static int serverPort() {
		String connectString = server.connectString();
		return Integer.parseInt(connectString.substring(connectString.lastIndexOf(':') + 1));
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class })
	static class LockConfiguration {

	}

}
