package dev.zklock.autoconfigure.jdbc;

import javax.sql.DataSource;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.jdbc.JdbcLockFence;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.condition.ConditionalOnBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnClass;
import org.springframework.boot.autoconfigure.condition.ConditionalOnMissingBean;
import org.springframework.boot.autoconfigure.condition.ConditionalOnSingleCandidate;
import org.springframework.boot.context.properties.EnableConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.EmbeddedDatabaseConnection;
import org.springframework.boot.sql.init.DatabaseInitializationMode;
import org.springframework.context.annotation.Bean;
import org.springframework.jdbc.core.JdbcTemplate;

/**
 * {@link org.springframework.boot.autoconfigure.EnableAutoConfiguration
 * Auto-configuration} of the {@link JdbcLockFence} of the application's
 * {@link DataSource}, when Spring JDBC is present and the application locks through a
 * {@link LockTemplate}. It backs off when there are several data sources and none is
 * primary, and creates the fence's table at start-up when
 * {@code distributed-lock.jdbc-fence.initialize-schema} says so.
 */
@AutoConfiguration(after = DistributedLockAutoConfiguration.class,
		afterName = "org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration")
@ConditionalOnClass({ JdbcTemplate.class, EmbeddedDatabaseConnection.class })
@ConditionalOnSingleCandidate(DataSource.class)
@ConditionalOnBean(LockTemplate.class)
@EnableConfigurationProperties(JdbcLockFenceProperties.class)
public final class JdbcLockFenceAutoConfiguration {

	@Bean
	@ConditionalOnMissingBean
	JdbcLockFence jdbcLockFence(DataSource dataSource, JdbcLockFenceProperties properties) {
		JdbcLockFence fence;
		try {
			fence = new JdbcLockFence(dataSource, properties.getTableName());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.jdbc-fence.table-name",
					properties.getTableName(), ex.getMessage());
		}
		DatabaseInitializationMode mode = properties.getInitializeSchema();
		if (mode == DatabaseInitializationMode.ALWAYS
				|| (mode == DatabaseInitializationMode.EMBEDDED && EmbeddedDatabaseConnection.isEmbedded(dataSource))) {
			fence.createTableIfMissing();
		}
		return fence;
	}

}
