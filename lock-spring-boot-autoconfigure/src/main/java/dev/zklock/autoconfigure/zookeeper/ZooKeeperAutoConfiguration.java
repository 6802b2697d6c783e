package dev.zklock.autoconfigure.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.context.annotation.Bean;
import org.springframework.util.StringUtils;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the Curator client for distributed locks. Backs off when the
 * application defines its own {@link CuratorFramework}, for example through Spring Cloud
 * Zookeeper.
 */
@AutoConfiguration(afterName = "org.springframework.cloud.zookeeper.ZookeeperAutoConfiguration")
@ConditionalOnClass(CuratorFramework.class)
@EnableConfigurationProperties(ZooKeeperProperties.class)
public final class ZooKeeperAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	ZooKeeperConnectionDetails zooKeeperConnectionDetails(ZooKeeperProperties properties) {
		return new PropertiesZooKeeperConnectionDetails(properties);
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	CuratorFramework curatorFramework(ZooKeeperConnectionDetails connectionDetails, ZooKeeperProperties properties,
			ObjectProvider<CuratorFrameworkBuilderCustomizer> customizers) {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connectionDetails.getConnectString())
			.sessionTimeoutMs(Math.toIntExact(properties.getSessionTimeout().toMillis()))
			.connectionTimeoutMs(Math.toIntExact(properties.getConnectionTimeout().toMillis()))
			.retryPolicy(retryPolicy(properties.getRetry()));
		if (StringUtils.hasText(properties.getNamespace())) {
			builder.namespace(properties.getNamespace());
		}
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		CuratorFramework client = builder.build();
		client.start();
		return client;
	}

	private static ExponentialBackoffRetry retryPolicy(ZooKeeperProperties.Retry retry) {
		return new ExponentialBackoffRetry(Math.toIntExact(retry.getBaseSleep().toMillis()), retry.getMaxRetries(),
				Math.toIntExact(retry.getMaxSleep().toMillis()));
	}

}
