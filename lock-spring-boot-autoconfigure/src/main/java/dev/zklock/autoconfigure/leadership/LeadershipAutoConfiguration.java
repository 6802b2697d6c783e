package dev.zklock.autoconfigure.leadership;

import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.leadership.LeaderRoleController;
import dev.zklock.leadership.LeadershipInitiator;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;

import org.springframework.beans.factory.ListableBeanFactory;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the application's leader election, when
 * {@code distributed-lock.leadership.name} names it: a {@link LeadershipInitiator} that
 * joins it with the application context, and a {@link LeaderRoleController} that runs the
 * {@link dev.zklock.leadership.LeaderOnly @LeaderOnly} beans while this instance leads.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnBean(ZooKeeperLockRegistry.class)
@ConditionalOnProperty(prefix = "distributed-lock.leadership", name = "name")
@EnableConfigurationProperties(LeadershipProperties.class)
public final class LeadershipAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	LeadershipInitiator leadershipInitiator(ZooKeeperLockRegistry zooKeeperLockRegistry,
			LeadershipProperties properties, ApplicationEventPublisher publisher) {
		String name = properties.getName();
		if (name == null || name.isBlank()) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.leadership.name", name,
					"The election's name must not be blank.");
		}
		LeadershipInitiator initiator = new LeadershipInitiator(zooKeeperLockRegistry, name, publisher);
		initiator.setAutoStartup(properties.isAutoStartup());
		return initiator;
	}

	@Bean
	@ConditionalOnMissingBean
	LeaderRoleController leaderRoleController(ListableBeanFactory beanFactory,
			LeadershipInitiator leadershipInitiator) {
		return new LeaderRoleController(beanFactory, leadershipInitiator);
	}

}
