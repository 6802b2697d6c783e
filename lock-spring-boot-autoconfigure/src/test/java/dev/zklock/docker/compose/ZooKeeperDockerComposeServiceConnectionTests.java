package dev.zklock.docker.compose;

import java.time.Duration;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperConnectionDetails;
import org.junit.jupiter.api.Test;
import org.testcontainers.junit.jupiter.Testcontainers;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Boot's Docker Compose support starts a real {@code zookeeper} service and the
 * locks connect to it. Needs a Docker engine with Compose: skipped without Docker.
 */
@Testcontainers(disabledWithoutDocker = true)
@SpringBootTest(classes = ZooKeeperDockerComposeServiceConnectionTests.LockConfiguration.class,
		properties = { "spring.docker.compose.enabled=true", "spring.docker.compose.skip.in-tests=false",
				"spring.docker.compose.file=src/test/resources/dev/zklock/docker/compose/zookeeper-compose.yaml",
				"spring.docker.compose.lifecycle-management=start-and-stop" })
class ZooKeeperDockerComposeServiceConnectionTests {

	@Autowired
	ZooKeeperConnectionDetails connectionDetails;

	@Autowired
	LockTemplate lockTemplate;

	@Test
	void theComposeServiceSuppliesTheConnection() {
		assertThat(this.connectionDetails.getClass().getName()).contains("DockerCompose");
		long token = this.lockTemplate.execute("compose", Duration.ofSeconds(30), (lock) -> lock.fencingToken());
		assertThat(token).isPositive();
	}

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class })
	static class LockConfiguration {

	}

}
