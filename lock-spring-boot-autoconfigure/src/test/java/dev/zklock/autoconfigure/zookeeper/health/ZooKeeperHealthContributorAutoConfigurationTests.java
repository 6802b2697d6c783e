package dev.zklock.autoconfigure.zookeeper.health;

import java.time.Duration;
import java.util.List;

import dev.zklock.autoconfigure.zookeeper.LockSessionClients;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.health.ZooKeeperHealthIndicator;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.CompositeHealthContributor;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthContributors;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

class ZooKeeperHealthContributorAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class,
				ZooKeeperHealthContributorAutoConfiguration.class, HealthContributorRegistryAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2999");

	@Test
	void registersTheIndicatorNamedZookeeper() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ZooKeeperHealthIndicator.class);
			HealthContributor contributor = context.getBean(HealthContributorRegistry.class)
				.getContributor("zookeeper");
			assertThat(contributor).isSameAs(context.getBean(ZooKeeperHealthIndicator.class));
		});
	}

	@Test
	void reportsTheAutoConfiguredClient() {
		this.contextRunner.run((context) -> {
			Health health = context.getBean(ZooKeeperHealthIndicator.class).health(true);
			assertThat(health.getDetails()).containsEntry("connectString", "127.0.0.1:2999");
		});
	}

	/**
	 * With several sessions, the contributor reports the client of each: the health is
	 * down once any one of them is, here a session whose client was closed.
	 */
	@Test
	void reportsEverySessionOfTheLockRegistry() {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.connect-string=" + zookeeper.connectString(),
					"distributed-lock.zookeeper.sessions=3")
			.run((context) -> {
				HealthContributor contributor = context.getBean(HealthContributorRegistry.class)
					.getContributor("zookeeper");
				assertThat(contributor).isInstanceOf(CompositeHealthContributor.class);
				CompositeHealthContributor sessions = (CompositeHealthContributor) contributor;
				assertThat(sessions.stream().map(HealthContributors.Entry::name)).containsExactly("curatorFramework",
						"lockSession2", "lockSession3");
				await().atMost(Duration.ofSeconds(15))
					.untilAsserted(() -> assertThat(statusOf(sessions)).containsOnly(Status.UP));
				List<CuratorFramework> further = context.getBean(LockSessionClients.class).clients();
				assertThat(indicator(sessions, "lockSession2").health(true).getDetails()).containsEntry("sessionId",
						"0x" + Long.toHexString(further.get(0).getZookeeperClient().getZooKeeper().getSessionId()));
				further.get(1).close();
				assertThat(indicator(sessions, "lockSession3").health(true).getStatus()).isEqualTo(Status.DOWN);
				assertThat(statusOf(sessions)).containsExactly(Status.UP, Status.UP, Status.DOWN);
			});
	}

	@Test
	void isOffWhenDisabledByProperty() {
		this.contextRunner.withPropertyValues("management.health.zookeeper.enabled=false")
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(ZooKeeperHealthIndicator.class));
	}

	@Test
	void isOffWhenHealthIndicatorsAreOffByDefault() {
		this.contextRunner.withPropertyValues("management.health.defaults.enabled=false")
			.run((context) -> assertThat(context).doesNotHaveBean(ZooKeeperHealthIndicator.class));
	}

	@Test
	void isOffWithoutSpringBootHealth() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.springframework.boot.health"))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(CuratorFramework.class)
				.doesNotHaveBean("zookeeperHealthContributor"));
	}

	@Test
	void isOffWithoutCurator() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(CuratorFramework.class))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean("zookeeperHealthContributor"));
	}

	@Test
	void backsOffWhenTheApplicationDefinesAZookeeperHealthIndicator() {
		HealthIndicator own = () -> Health.up().build();
		this.contextRunner.withBean("zookeeperHealthIndicator", HealthIndicator.class, () -> own).run((context) -> {
			assertThat(context).doesNotHaveBean(ZooKeeperHealthIndicator.class)
				.doesNotHaveBean("zookeeperHealthContributor");
			assertThat(context.getBean(HealthContributorRegistry.class).getContributor("zookeeper")).isSameAs(own);
		});
	}

	private static List<Status> statusOf(CompositeHealthContributor sessions) {
		return sessions.stream()
			.map((entry) -> ((HealthIndicator) entry.contributor()).health(false).getStatus())
			.toList();
	}

	private static HealthIndicator indicator(CompositeHealthContributor sessions, String name) {
		return (HealthIndicator) sessions.getContributor(name);
	}

}
