package dev.zklock.autoconfigure.zookeeper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.Set;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;

import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;
import org.springframework.core.env.Environment;
import org.springframework.util.StringUtils;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of an in-process ZooKeeper server for development, enabled by
 * {@code distributed-lock.zookeeper.embedded.enabled=true}. The Curator client connects
 * to it instead of the configured connect string.
 * <p>
 * An application that looks as if it ran as one of several instances gets a warning at
 * start-up, as each instance would lock on a server of its own: one whose connect string
 * is set too, or one with an active profile other than {@code default}, {@code dev},
 * {@code development}, {@code local} and {@code test}.
 */
@AutoConfiguration(before = ZooKeeperAutoConfiguration.class)
@ConditionalOnClass(ZooKeeperServerEmbedded.class)
@ConditionalOnProperty(name = "distributed-lock.zookeeper.embedded.enabled", havingValue = "true")
@EnableConfigurationProperties(ZooKeeperProperties.class)
public final class EmbeddedZooKeeperAutoConfiguration {

	/**
	 * The profiles of development and tests, under which an embedded server is expected.
	 */
	private static final Set<String> DEVELOPMENT_PROFILES = Set.of("default", "dev", "development", "local", "test");

	private static final Log logger = LogFactory.getLog(EmbeddedZooKeeperAutoConfiguration.class);

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	EmbeddedZooKeeperServer embeddedZooKeeperServer(ZooKeeperProperties properties, Environment environment)
			throws Exception {
		warnIfClustered(properties, environment);
		EmbeddedZooKeeperProperties embedded = properties.getEmbedded();
		if (embedded.getPort() < 0 || embedded.getPort() > 65535) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.zookeeper.embedded.port",
					embedded.getPort(), "It must be a port from 0 to 65535, where 0 picks a free port.");
		}
		Path dataDirectory = embedded.getDataDirectory();
		if (dataDirectory != null && Files.exists(dataDirectory) && !Files.isDirectory(dataDirectory)) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.zookeeper.embedded.data-directory",
					dataDirectory, "It must be a directory, or not exist yet, but it is a file.");
		}
		return new EmbeddedZooKeeperServer(embedded.getPort(), dataDirectory);
	}

	/**
	 * Warns when the application looks as if it ran as one of several instances: a
	 * connect string is configured too (and ignored), or a profile other than a
	 * development or test one is active. Each instance would lock on a server of its own,
	 * and the instances would not exclude each other.
	 */
	private static void warnIfClustered(ZooKeeperProperties properties, Environment environment) {
		List<String> reasons = new ArrayList<>();
		if (StringUtils.hasText(properties.getConnectString())) {
			reasons.add("'distributed-lock.zookeeper.connect-string' (" + properties.getConnectString()
					+ ") is set too, and ignored");
		}
		List<String> otherProfiles = Arrays.stream(environment.getActiveProfiles())
			.filter((profile) -> !DEVELOPMENT_PROFILES.contains(profile.toLowerCase(Locale.ROOT)))
			.toList();
		if (!otherProfiles.isEmpty()) {
			reasons.add("profiles " + otherProfiles + " are active, which are not development or test profiles");
		}
		if (!reasons.isEmpty()) {
			logger.warn("The embedded ZooKeeper server is enabled (distributed-lock.zookeeper.embedded.enabled=true) "
					+ "while " + String.join(" and ", reasons) + ": the locks of this instance exclude only "
					+ "callers that use its own server, not other instances with servers of their own. Point every "
					+ "instance at one ensemble with 'distributed-lock.zookeeper.connect-string' and "
					+ "'distributed-lock.zookeeper.embedded.enabled=false'.");
		}
	}

	@Bean
	@ConditionalOnMissingBean
	ZooKeeperConnectionDetails embeddedZooKeeperConnectionDetails(EmbeddedZooKeeperServer embeddedZooKeeperServer) {
		return embeddedZooKeeperServer::getConnectString;
	}

}
