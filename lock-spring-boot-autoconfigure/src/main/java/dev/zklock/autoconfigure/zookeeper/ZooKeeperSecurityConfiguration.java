package dev.zklock.autoconfigure.zookeeper;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.condition.AnyNestedCondition;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBooleanProperty;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Conditional;
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
	@Conditional(OnTlsCondition.class)
	TlsClientConfigCustomizer zooKeeperTlsClientConfigCustomizer(ZooKeeperProperties properties,
			ObjectProvider<SslBundles> sslBundles) {
		return new TlsClientConfigCustomizer(properties.getSsl(), sslBundles.getIfAvailable());
	}

	/**
	 * Matches when {@code distributed-lock.zookeeper.ssl.enabled} is true, or when a
	 * bundle is set and it is not false.
	 */
	static final class OnTlsCondition extends AnyNestedCondition {

		OnTlsCondition() {
			super(ConfigurationPhase.REGISTER_BEAN);
		}

		@ConditionalOnBooleanProperty("distributed-lock.zookeeper.ssl.enabled")
		static final class Enabled {

		}

		@ConditionalOnProperty("distributed-lock.zookeeper.ssl.bundle")
		@ConditionalOnBooleanProperty(name = "distributed-lock.zookeeper.ssl.enabled", matchIfMissing = true)
		static final class Bundle {

		}

	}

}
