package dev.zklock.docker.compose;

import java.lang.reflect.Constructor;
import java.time.Duration;
import java.util.List;
import java.util.Map;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperConnectionDetails;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetails;
import org.springframework.boot.autoconfigure.service.connection.ConnectionDetailsFactories;
import org.springframework.boot.docker.compose.core.ConnectionPorts;
import org.springframework.boot.docker.compose.core.ImageReference;
import org.springframework.boot.docker.compose.core.RunningService;
import org.springframework.boot.docker.compose.service.connection.DockerComposeConnectionSource;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.env.Environment;
import org.springframework.core.env.StandardEnvironment;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The Docker Compose service connection without Docker: a running service as Spring
 * Boot's Docker Compose support describes it (its image, host and published ports),
 * handed to the connection details factories that {@code spring.factories} registers,
 * whose result then drives the locks against a real ZooKeeper server in this JVM. Spring
 * Boot makes the connection source only in its own package, so the test builds one
 * reflectively.
 */
class ZooKeeperDockerComposeConnectionDetailsFactoryTests {

	@RegisterExtension
	static final ZooKeeperTestServer server = new ZooKeeperTestServer();

	@Test
	void aZookeeperServiceConnectsTheLocksToItsPublishedClientPort() throws Exception {
		ZooKeeperConnectionDetails details = connectionDetails(service("zookeeper:3.9.4", Map.of()));
		assertThat(details.getConnectString()).isEqualTo(server.connectString());
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
			.withBean(ZooKeeperConnectionDetails.class, () -> details)
			.run((context) -> {
				long token = context.getBean(LockTemplate.class)
					.execute("compose", Duration.ofSeconds(10), (lock) -> lock.fencingToken());
				assertThat(token).isPositive();
			});
	}

	@Test
	void theOfficialImageMatchesWhateverRegistryNamesIt() throws Exception {
		assertThat(connectionDetails(service("docker.io/library/zookeeper:3.9", Map.of())).getConnectString())
			.isEqualTo(server.connectString());
	}

	@Test
	void anotherImageMatchesThroughTheServiceConnectionLabel() throws Exception {
		RunningService service = service("bitnami/zookeeper:3.9",
				Map.of("org.springframework.boot.service-connection", "zookeeper"));
		assertThat(connectionDetails(service).getConnectString()).isEqualTo(server.connectString());
	}

	@Test
	void anotherImageWithoutTheLabelIsNotTakenForZooKeeper() throws Exception {
		Map<Class<?>, ConnectionDetails> details = new ConnectionDetailsFactories(null)
			.getConnectionDetails(source(service("bitnami/zookeeper:3.9", Map.of())), false);
		assertThat(details).doesNotContainKey(ZooKeeperConnectionDetails.class);
	}

	private static ZooKeeperConnectionDetails connectionDetails(RunningService service) throws Exception {
		Map<Class<?>, ConnectionDetails> details = new ConnectionDetailsFactories(null)
			.getConnectionDetails(source(service), true);
		assertThat(details).containsKey(ZooKeeperConnectionDetails.class);
		return (ZooKeeperConnectionDetails) details.get(ZooKeeperConnectionDetails.class);
	}

	private static DockerComposeConnectionSource source(RunningService service) throws Exception {
		Constructor<DockerComposeConnectionSource> constructor = DockerComposeConnectionSource.class
			.getDeclaredConstructor(RunningService.class, Environment.class);
		constructor.setAccessible(true);
		return constructor.newInstance(service, new StandardEnvironment());
	}

	private static RunningService service(String image, Map<String, String> labels) {
		String connectString = server.connectString();
		int port = Integer.parseInt(connectString.substring(connectString.lastIndexOf(':') + 1));
		return new RunningService() {

			@Override
			public String name() {
				return "zk1";
			}

			@Override
			public ImageReference image() {
				return ImageReference.of(image);
			}

			@Override
			public String host() {
				return "127.0.0.1";
			}

			@Override
			public ConnectionPorts ports() {
				return new ConnectionPorts() {

					@Override
					public int get(int containerPort) {
						assertThat(containerPort).isEqualTo(2181);
						return port;
					}

					@Override
					public List<Integer> getAll() {
						return List.of(port);
					}

					@Override
					public List<Integer> getAll(String protocol) {
						return List.of(port);
					}

				};
			}

			@Override
			public Map<String, String> env() {
				return Map.of();
			}

			@Override
			public Map<String, String> labels() {
				return labels;
			}

		};
	}

}
