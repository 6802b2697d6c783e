package dev.zklock.autoconfigure.zookeeper.health;

import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.health.ZooKeeperHealthIndicator;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.health.autoconfigure.contributor.CompositeHealthContributorConfiguration;
import org.springframework.boot.health.autoconfigure.contributor.ConditionalOnEnabledHealthIndicator;
import org.springframework.boot.health.contributor.HealthContributor;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of {@link ZooKeeperHealthIndicator}, named {@code zookeeper} in the
 * health endpoint, for every {@link CuratorFramework} bean. It needs
 * {@code spring-boot-health} (which {@code spring-boot-starter-actuator} brings), backs
 * off when the application (or Spring Cloud Zookeeper) defines a
 * {@code zookeeperHealthIndicator} or {@code zookeeperHealthContributor} bean, and is
 * turned off by {@code management.health.zookeeper.enabled=false}.
 */
@AutoConfiguration(after = ZooKeeperAutoConfiguration.class,
		afterName = "org.springframework.cloud.zookeeper.ZookeeperHealthAutoConfiguration")
@ConditionalOnClass({ CuratorFramework.class, HealthContributor.class, ConditionalOnEnabledHealthIndicator.class })
public final class ZooKeeperHealthContributorAutoConfiguration {

	// The health conditions sit on a nested class: without spring-boot-health, the
	// class condition above skips it before its condition classes are loaded.
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(CuratorFramework.class)
	@ConditionalOnEnabledHealthIndicator("zookeeper")
	static class ZooKeeperHealthContributorConfiguration
			extends CompositeHealthContributorConfiguration<ZooKeeperHealthIndicator, CuratorFramework> {

		ZooKeeperHealthContributorConfiguration() {
			super(ZooKeeperHealthIndicator::new);
		}

		@Bean
		@ConditionalOnMissingBean(name = { "zookeeperHealthIndicator", "zookeeperHealthContributor" })
		HealthContributor zookeeperHealthContributor(ConfigurableListableBeanFactory beanFactory) {
			return createContributor(beanFactory, CuratorFramework.class);
		}

	}

}
