package dev.zklock.embedded;

import java.time.Duration;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.EmbeddedZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.EmbeddedZooKeeperServer;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The one step to the embedded server: with this module as the only dependency for it
 * (the auto-configuration does not bring the server's run-time needs, it only names
 * them), an application that enables the server starts it and locks on it.
 */
class EmbeddedServerDependencyTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EmbeddedZooKeeperAutoConfiguration.class,
				ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
				"distributed-lock.zookeeper.embedded.port=0");

	@Test
	void enablingTheEmbeddedServerStartsItAndTheLocksUseIt() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(EmbeddedZooKeeperServer.class);
			long token = context.getBean(LockTemplate.class)
				.execute("embedded", Duration.ofSeconds(10), (lock) -> lock.fencingToken());
			assertThat(token).isPositive();
		});
	}

}
