package dev.zklock.autoconfigure.zookeeper;

import java.util.Map;

import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.SpringApplication;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

class ZooKeeperClientLogLevelTests {

	@ParameterizedTest(name = "{0}={1} gives {2}")
	@CsvSource(nullValues = "none",
			value = { "none, none, error", "logging.level.org.apache.zookeeper, warn, error",
					"logging.level.org.apache.zookeeper, WARN, error", "logging.level.org, warn, error",
					"logging.level.root, debug, error", "logging.level.org.apache.zookeeper, info, none",
					"logging.level.org.apache.zookeeper, debug, none", "logging.level.org.apache, off, none",
					"logging.level.org.apache.zookeeper.ClientCnxn, warn, warn",
					"logging.level.org.apache.zookeeper.ClientCnxn, debug, debug" })
	void defaultsTheClientsLoggerToErrorUnlessTheApplicationAskedForMore(String property, String level,
			String effective) {
		StandardEnvironment environment = new StandardEnvironment();
		if (property != null) {
			environment.getPropertySources().addFirst(new MapPropertySource("application", Map.of(property, level)));
		}
		new ZooKeeperClientLogLevel().postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("logging.level." + ZooKeeperClientLogLevel.LOGGER)).isEqualTo(effective);
	}

	@ParameterizedTest(name = "{0}={1} gives {2}")
	@CsvSource(nullValues = "none", value = { "LOGGING_LEVEL_ORG_APACHE_ZOOKEEPER, debug, none",
			"LOGGING_LEVEL_ORG_APACHE_ZOOKEEPER, warn, error", "LOGGING_LEVEL_ORG_APACHE, off, none" })
	void readsLevelsSetInEnvironmentVariables(String variable, String level, String effective) {
		StandardEnvironment environment = new StandardEnvironment();
		environment.getPropertySources()
			.replace(StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, new SystemEnvironmentPropertySource(
					StandardEnvironment.SYSTEM_ENVIRONMENT_PROPERTY_SOURCE_NAME, Map.of(variable, level)));
		new ZooKeeperClientLogLevel().postProcessEnvironment(environment, new SpringApplication());
		assertThat(environment.getProperty("logging.level." + ZooKeeperClientLogLevel.LOGGER)).isEqualTo(effective);
	}

}
