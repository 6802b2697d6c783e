package dev.zklock.testcontainers;

import java.time.Duration;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperConnectionDetails;
import org.junit.jupiter.api.Test;
import org.testcontainers.containers.GenericContainer;
import org.testcontainers.junit.jupiter.Container;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A real {@code zookeeper} container with {@code @ServiceConnection}, as the guide's
 * testing chapter shows it. Needs a Docker engine: skipped without Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(classes = ZooKeeperContainerDockerTests.LockConfiguration.class)
class ZooKeeperContainerDockerTests {

	// tag::container[]
	@Container
	@ServiceConnection
	static final GenericContainer<?> zookeeper = new GenericContainer<>("zookeeper:3.9.4").withExposedPorts(2181);

	// end::container[]

	@Autowired
	ZooKeeperConnectionDetails connectionDetails;

	@Autowired
	LockTemplate lockTemplate;

	@Test
	void theContainerSuppliesTheConnection() {
		assertThat(this.connectionDetails.getConnectString())
			.isEqualTo(zookeeper.getHost() + ":" + zookeeper.getMappedPort(2181));
		long token = this.lockTemplate.execute("container", Duration.ofSeconds(30), (lock) -> lock.fencingToken());
		assertThat(token).isPositive();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class })
	static class LockConfiguration {

	}

}
