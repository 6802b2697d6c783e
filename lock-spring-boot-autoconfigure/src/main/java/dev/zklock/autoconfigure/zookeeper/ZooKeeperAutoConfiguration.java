package dev.zklock.autoconfigure.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
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
import org.springframework.context.annotation.Configuration;
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
 * <p>
 * With {@code distributed-lock.zookeeper.sessions} above one, the lock registry spreads
 * its keys over that many sessions: the auto-configuration then also builds the clients
 * of the further sessions ({@link LockSessionClients}), each like the first, with the
 * same properties and customizers, started with it and closed with it.
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

	/**
	 * The most sessions of the lock registry: more than the threads that lock different
	 * keys at once gain nothing, and each is a connection that ZooKeeper counts.
	 */
	private static final int MAX_SESSIONS = 32;

	@Bean
	@ConditionalOnMissingBean
	ZooKeeperConnectionDetails zooKeeperConnectionDetails(ZooKeeperProperties properties, Environment environment) {
		return new PropertiesZooKeeperConnectionDetails(properties, Binder.get(environment));
	}

	/**
	 * The lock registry's clients, when the application defines no
	 * {@link CuratorFramework}: the client of its first session and those of its further
	 * sessions, all built alike.
	 */
	@Configuration(proxyBeanMethods = false)
	@ConditionalOnMissingBean(CuratorFramework.class)
	static class CuratorFrameworkConfiguration {

		@Bean(destroyMethod = "close")
		CuratorFramework curatorFramework(ZooKeeperConnectionDetails connectionDetails, ZooKeeperProperties properties,
				ObjectProvider<CuratorFrameworkBuilderCustomizer> customizers) {
			CuratorFramework client = builder(connectionDetails, properties, customizers).build();
			client.start();
			return client;
		}

		@Bean(destroyMethod = "close")
		@ConditionalOnMissingBean(ZooKeeperLockRegistry.class)
		LockSessionClients lockSessionClients(ZooKeeperConnectionDetails connectionDetails,
				ZooKeeperProperties properties, ObjectProvider<CuratorFrameworkBuilderCustomizer> customizers) {
			int furtherSessions = sessions(properties.getSessions()) - 1;
			List<CuratorFramework> clients = new ArrayList<>(furtherSessions);
			for (int i = 0; i < furtherSessions; i++) {
				clients.add(builder(connectionDetails, properties, customizers).build());
			}
			clients.forEach(CuratorFramework::start);
			return new LockSessionClients(clients);
		}

		/**
		 * A builder of a client with a session of its own, configured from the
		 * properties, then by the customizers in order.
		 */
		private static CuratorFrameworkFactory.Builder builder(ZooKeeperConnectionDetails connectionDetails,
				ZooKeeperProperties properties, ObjectProvider<CuratorFrameworkBuilderCustomizer> customizers) {
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
			return builder;
		}

	}

	private static int sessions(int sessions) {
		if (sessions < 1 || sessions > MAX_SESSIONS) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + "sessions", sessions,
					"It must be from 1 to " + MAX_SESSIONS + ": each session is one more connection to ZooKeeper, "
							+ "and ZooKeeper accepts at most 60 connections from one address by default "
							+ "(maxClientCnxns).");
		}
		return sessions;
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
