package dev.zklock.autoconfigure.zookeeper;

import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Authentication, node ACLs and TLS of the auto-configured client, as
 * {@link CuratorFrameworkBuilderCustomizer customizers} that run before the
 * application's.
 */
@Configuration(proxyBeanMethods = false)
class ZooKeeperSecurityConfiguration {

	@Bean
	DigestAuthenticationCustomizer zooKeeperDigestAuthenticationCustomizer(ZooKeeperProperties properties) {
		return new DigestAuthenticationCustomizer(properties);
	}

	@Bean
	@ConditionalOnBooleanProperty("distributed-lock.zookeeper.ssl.enabled")
	TlsClientConfigCustomizer zooKeeperTlsClientConfigCustomizer(ZooKeeperProperties properties) {
		return new TlsClientConfigCustomizer(properties.getSsl());
	}

}
