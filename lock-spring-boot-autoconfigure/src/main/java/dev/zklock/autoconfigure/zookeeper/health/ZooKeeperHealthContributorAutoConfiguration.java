package dev.zklock.autoconfigure.zookeeper.health;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

import dev.zklock.autoconfigure.zookeeper.LockSessionClients;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.health.ZooKeeperHealthIndicator;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.beans.factory.config.ConfigurableListableBeanFactory;
import org.springframework.beans.factory.support.SimpleAutowireCandidateResolver;
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
 * health endpoint, for every {@link CuratorFramework} bean and, with
 * {@code distributed-lock.zookeeper.sessions} above one, for the client of each further
 * session of the lock registry, named {@code lockSession2} and on: the health is down
 * while any of them is. It needs {@code spring-boot-health} (which
 * {@code spring-boot-starter-actuator} brings), backs off when the application (or Spring
 * Cloud Zookeeper) defines a {@code zookeeperHealthIndicator} or
 * {@code zookeeperHealthContributor} bean, and is turned off by
 * {@code management.health.zookeeper.enabled=false}.
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
		HealthContributor zookeeperHealthContributor(ConfigurableListableBeanFactory beanFactory,
				ObjectProvider<LockSessionClients> lockSessionClients) {
			LockSessionClients sessionClients = lockSessionClients.getIfAvailable();
			List<CuratorFramework> furtherSessions = (sessionClients != null) ? sessionClients.clients() : List.of();
			if (furtherSessions.isEmpty()) {
				return createContributor(beanFactory, CuratorFramework.class);
			}
			Map<String, CuratorFramework> clients = new LinkedHashMap<>(
					SimpleAutowireCandidateResolver.resolveAutowireCandidates(beanFactory, CuratorFramework.class));
			for (int i = 0; i < furtherSessions.size(); i++) {
				clients.put("lockSession" + (i + 2), furtherSessions.get(i));
			}
			return createContributor(clients);
		}

	}

}
