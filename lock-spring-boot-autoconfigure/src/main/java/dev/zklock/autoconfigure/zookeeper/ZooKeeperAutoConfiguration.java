package dev.zklock.autoconfigure.zookeeper;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import java.time.Duration;

import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.zookeeper.common.PathUtils;

import org.springframework.beans.factory.ObjectProvider;
import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the Curator client for distributed locks. Backs off when the
 * application defines its own {@link CuratorFramework}, for example through Spring Cloud
 * Zookeeper.
 * <p>
 * The client stays quiet while ZooKeeper is out of reach, since zklock reports an outage
 * in one line and its end in another: it resolves the servers' names through a
 * {@link ZooKeeperHandleFactory}, which reports a name that does not resolve once, and it
 * leaves Curator's ensemble tracker off. The tracker follows dynamic reconfigurations of
 * the ensemble by reading its configuration as soon as the client starts, a background
 * operation that Curator gives up on, with an error and a stack trace, when ZooKeeper is
 * unreachable at start-up; it also replaces the connect string with the addresses the
 * servers know themselves by. An application whose ensemble is reconfigured at run time
 * turns it on with a {@link CuratorFrameworkBuilderCustomizer} that calls
 * {@code ensembleTracker(true)}.
 * <p>
 * The same factory's handles wait at most
 * {@code distributed-lock.zookeeper.close-timeout} for ZooKeeper to end the session when
 * the client closes, so that an application shuts down promptly while ZooKeeper is down
 * or frozen.
 */
@AutoConfiguration(afterName = "org.springframework.cloud.zookeeper.ZookeeperAutoConfiguration")
@ConditionalOnClass(CuratorFramework.class)
@EnableConfigurationProperties(ZooKeeperProperties.class)
@Import(ZooKeeperSecurityConfiguration.class)
public final class ZooKeeperAutoConfiguration {

	private static final String PREFIX = "distributed-lock.zookeeper.";

	/**
	 * The most retries of Curator's {@link BoundedExponentialBackoffRetry}, which quietly
	 * uses this many instead of more.
	 */
	private static final int MAX_RETRIES = 29;

	private static final Duration LONGEST_MILLIS = Duration.ofMillis(Integer.MAX_VALUE);

	@Bean
	@ConditionalOnMissingBean
	ZooKeeperConnectionDetails zooKeeperConnectionDetails(ZooKeeperProperties properties, Environment environment) {
		return new PropertiesZooKeeperConnectionDetails(properties, Binder.get(environment));
	}

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	CuratorFramework curatorFramework(ZooKeeperConnectionDetails connectionDetails, ZooKeeperProperties properties,
			ObjectProvider<CuratorFrameworkBuilderCustomizer> customizers) {
		CuratorFrameworkFactory.Builder builder = CuratorFrameworkFactory.builder()
			.connectString(connectionDetails.getConnectString())
			.sessionTimeoutMs(millis("session-timeout", properties.getSessionTimeout()))
			.connectionTimeoutMs(millis("connection-timeout", properties.getConnectionTimeout()))
			.retryPolicy(retryPolicy(properties.getRetry()))
			.zookeeperFactory(new ZooKeeperHandleFactory(
					Duration.ofMillis(millis("close-timeout", properties.getCloseTimeout()))))
			.ensembleTracker(false);
		if (StringUtils.hasText(properties.getNamespace())) {
			builder.namespace(namespace(properties.getNamespace()));
		}
		customizers.orderedStream().forEach((customizer) -> customizer.customize(builder));
		CuratorFramework client = builder.build();
		client.start();
		return client;
	}

	private static BoundedExponentialBackoffRetry retryPolicy(ZooKeeperProperties.Retry retry) {
		if (retry.getMaxRetries() < 0 || retry.getMaxRetries() > MAX_RETRIES) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + "retry.max-retries", retry.getMaxRetries(),
					"It must be from 0 to " + MAX_RETRIES + ", the most that Curator's exponential back-off retries.");
		}
		return new BoundedExponentialBackoffRetry(millis("retry.base-sleep", retry.getBaseSleep()),
				millis("retry.max-sleep", retry.getMaxSleep()), retry.getMaxRetries());
	}

	private static int millis(String property, Duration duration) {
		if (duration.isNegative() || duration.isZero() || duration.compareTo(LONGEST_MILLIS) > 0) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + property, duration,
					"It must be positive and at most " + Integer.MAX_VALUE + "ms.");
		}
		return (int) duration.toMillis();
	}

	private static String namespace(String namespace) {
		try {
			PathUtils.validatePath("/" + namespace);
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + "namespace", namespace,
					"It must be a ZooKeeper path without a leading slash, such as 'billing' or 'apps/billing': "
							+ ex.getMessage());
		}
		return namespace;
	}

}
