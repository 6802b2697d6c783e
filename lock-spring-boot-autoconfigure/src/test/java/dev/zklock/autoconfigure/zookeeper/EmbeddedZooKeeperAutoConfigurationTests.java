package dev.zklock.autoconfigure.zookeeper;

import java.nio.file.Path;
import java.time.Duration;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

class EmbeddedZooKeeperAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EmbeddedZooKeeperAutoConfiguration.class,
				ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class));

	@Test
	void isOffByDefault() {
		this.contextRunner.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2181")
			.run((context) -> assertThat(context).doesNotHaveBean(EmbeddedZooKeeperServer.class));
	}

	@Test
	void startsARealServerThatTheLocksUseAndStopsItOnClose(@TempDir Path data) throws Exception {
		String[] connectString = new String[1];
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
					"distributed-lock.zookeeper.embedded.port=0",
					"distributed-lock.zookeeper.embedded.data-directory=" + data,
					"distributed-lock.zookeeper.connect-string=unused.invalid:2181")
			.run((context) -> {
				assertThat(context).hasSingleBean(EmbeddedZooKeeperServer.class);
				connectString[0] = context.getBean(EmbeddedZooKeeperServer.class).getConnectString();
				assertThat(connectString[0]).startsWith("127.0.0.1:").doesNotEndWith(":0");
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(connectString[0]);
				long token = context.getBean(LockTemplate.class)
					.execute("embedded", Duration.ofSeconds(10), (lock) -> lock.fencingToken());
				assertThat(token).isPositive();
				assertThat(client.getChildren().forPath("/locks")).contains("embedded");
			});
		assertThat(data.resolve("data")).isDirectory();
		ZooKeeper probe = new ZooKeeper(connectString[0], 1_000, (event) -> {
		});
		try {
			assertThatExceptionOfType(KeeperException.ConnectionLossException.class)
				.isThrownBy(() -> probe.exists("/", false));
		}
		finally {
			probe.close();
		}
	}

}
