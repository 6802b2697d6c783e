package dev.zklock.autoconfigure.actuate;

import dev.zklock.actuate.LocksEndpoint;
import dev.zklock.actuate.LocksEndpointWebExtension;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;

import org.springframework.boot.actuate.autoconfigure.endpoint.condition.ConditionalOnAvailableEndpoint;
import org.springframework.boot.actuate.autoconfigure.endpoint.expose.EndpointExposure;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the {@code locks} actuator endpoint ({@link LocksEndpoint}),
 * when the actuator is present and the endpoint is exposed.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class)
@ConditionalOnClass({ Endpoint.class, ConditionalOnAvailableEndpoint.class })
public final class LocksEndpointAutoConfiguration {

	// The endpoint conditions sit on a nested class: without the actuator, the class
	// condition above skips it before its condition classes are loaded.
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnBean(ZooKeeperLockRegistry.class)
	@ConditionalOnAvailableEndpoint(LocksEndpoint.class)
	static class LocksEndpointConfiguration {

		@Bean
		@ConditionalOnMissingBean
		LocksEndpoint locksEndpoint(ZooKeeperLockRegistry zooKeeperLockRegistry) {
			return new LocksEndpoint(zooKeeperLockRegistry);
		}

		@Bean
		@ConditionalOnMissingBean
		@ConditionalOnAvailableEndpoint(endpoint = LocksEndpoint.class, exposure = EndpointExposure.WEB)
		LocksEndpointWebExtension locksEndpointWebExtension(LocksEndpoint locksEndpoint) {
			return new LocksEndpointWebExtension(locksEndpoint);
		}

	}

}
