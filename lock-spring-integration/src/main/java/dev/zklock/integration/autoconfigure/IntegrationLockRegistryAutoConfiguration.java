package dev.zklock.integration.autoconfigure;

import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.integration.ZooKeeperIntegrationLockRegistry;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import io.micrometer.observation.ObservationRegistry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of Spring Integration's {@link LockRegistry} on zklock: a
 * {@link ZooKeeperIntegrationLockRegistry} over the application's
 * {@link ZooKeeperLockRegistry}, when Spring Integration is on the class path and the
 * application declares no {@link LockRegistry} of its own. Its {@code executeLocked}
 * calls are observed through the application's {@link ObservationRegistry}, when it has
 * one.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass(LockRegistry.class)
@ConditionalOnBean(ZooKeeperLockRegistry.class)
public final class IntegrationLockRegistryAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean(LockRegistry.class)
	ZooKeeperIntegrationLockRegistry zooKeeperIntegrationLockRegistry(ZooKeeperLockRegistry zooKeeperLockRegistry,
			ObjectProvider<ObservationRegistry> observationRegistry) {
		ZooKeeperIntegrationLockRegistry registry = new ZooKeeperIntegrationLockRegistry(zooKeeperLockRegistry);
		registry.setObservationRegistry(observationRegistry.getIfAvailable(() -> ObservationRegistry.NOOP));
		return registry;
	}

}
