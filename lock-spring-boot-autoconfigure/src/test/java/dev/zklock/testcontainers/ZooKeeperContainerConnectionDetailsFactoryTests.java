package dev.zklock.testcontainers;

import java.time.Duration;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperConnectionDetails;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsNotFoundException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.testcontainers.service.connection.ServiceConnection;
import org.springframework.boot.testcontainers.service.connection.ServiceConnectionAutoConfiguration;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Testcontainers service connection of a container bean through Spring Boot's own
 * machinery ({@code @ServiceConnection} on a {@code @Bean} method, the factory found
 * through {@code spring.factories}), without Docker: the container is a stand-in whose
 * host and mapped port are those of a real ZooKeeper server in this JVM.
 */
class ZooKeeperContainerConnectionDetailsFactoryTests {

	@RegisterExtension
	static final ZooKeeperTestServer server = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ServiceConnectionAutoConfiguration.class,
				ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class));

	@Test
	void aContainerBeanWithAZookeeperServiceConnectionConfiguresTheLocks() {
		this.contextRunner.withUserConfiguration(NamedServiceConnectionConfiguration.class)
			.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:1")
			.run((context) -> {
				assertThat(context).hasSingleBean(ZooKeeperConnectionDetails.class);
				ZooKeeperConnectionDetails details = context.getBean(ZooKeeperConnectionDetails.class);
				assertThat(details.getClass().getName()).contains("ZooKeeperContainerConnectionDetails");
				assertThat(details.getConnectString()).isEqualTo(server.connectString());
				assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().getCurrentConnectionString())
					.isEqualTo(server.connectString());
				long token = context.getBean(LockTemplate.class)
					.execute("container", Duration.ofSeconds(10), (lock) -> lock.fencingToken());
				assertThat(token).isPositive();
			});
	}

	@Test
	void aServiceConnectionOfAnotherNameIsNotTakenForZooKeeper() {
		this.contextRunner.withUserConfiguration(OtherServiceConnectionConfiguration.class)
			.run((context) -> assertThat(context).getFailure().isInstanceOf(ConnectionDetailsNotFoundException.class));
	}

	static int serverPort() {
		String connectString = server.connectString();
		return Integer.parseInt(connectString.substring(connectString.lastIndexOf(':') + 1));
	}

	@Configuration(proxyBeanMethods = false)
	static class NamedServiceConnectionConfiguration {

		@Bean
		@ServiceConnection("zookeeper")
		InProcessZooKeeperContainer zookeeper() {
			return new InProcessZooKeeperContainer("bitnami/zookeeper:3.9",
					ZooKeeperContainerConnectionDetailsFactoryTests::serverPort);
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OtherServiceConnectionConfiguration {

		@Bean
		@ServiceConnection("redis")
		InProcessZooKeeperContainer zookeeper() {
			return new InProcessZooKeeperContainer("redis:7",
					ZooKeeperContainerConnectionDetailsFactoryTests::serverPort);
		}

	}

}
