package dev.zklock.autoconfigure.zookeeper;

import java.nio.file.Files;
import java.nio.file.Path;

import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnProperty;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.context.annotation.Bean;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of an in-process ZooKeeper server for development, enabled by
 * {@code distributed-lock.zookeeper.embedded.enabled=true}. The Curator client connects
 * to it instead of the configured connect string.
 */
@AutoConfiguration(before = ZooKeeperAutoConfiguration.class)
@ConditionalOnClass(ZooKeeperServerEmbedded.class)
@ConditionalOnProperty(name = "distributed-lock.zookeeper.embedded.enabled", havingValue = "true")
@EnableConfigurationProperties(ZooKeeperProperties.class)
public final class EmbeddedZooKeeperAutoConfiguration {

	@Bean(destroyMethod = "close")
	@ConditionalOnMissingBean
	EmbeddedZooKeeperServer embeddedZooKeeperServer(ZooKeeperProperties properties) throws Exception {
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

	@Bean
	@ConditionalOnMissingBean
	ZooKeeperConnectionDetails embeddedZooKeeperConnectionDetails(EmbeddedZooKeeperServer embeddedZooKeeperServer) {
		return embeddedZooKeeperServer::getConnectString;
	}

}
