package dev.zklock.autoconfigure.zookeeper.health;

import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.health.ZooKeeperHealthIndicator;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.health.autoconfigure.registry.HealthContributorRegistryAutoConfiguration;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.registry.HealthContributorRegistry;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class ZooKeeperHealthContributorAutoConfigurationTests {

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

}
