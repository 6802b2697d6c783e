package dev.zklock.autoconfigure.zookeeper;

import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.regex.Pattern;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.testsupport.ZooKeeperTestServer;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.util.ContextInitializer;
import ch.qos.logback.core.joran.spi.JoranException;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.slf4j.LoggerFactory;

import org.springframework.boot.SpringApplication;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.StandardEnvironment;
import org.springframework.core.env.SystemEnvironmentPropertySource;

import static org.assertj.core.api.Assertions.assertThat;

@ExtendWith(OutputCaptureExtension.class)
class ZooKeeperClientLogLevelTests {

	/**
	 * A logger of ZooKeeper or Curator as Spring Boot's console pattern prints it, its
	 * package names abbreviated or not.
	 */
	private static final Pattern ZOOKEEPER_OR_CURATOR_LOGGER = Pattern
		.compile("\\b(o|org)\\.(a|apache)\\.(z|zookeeper|c|curator)\\.");

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	/**
	 * Gives the other tests of this JVM this module's logback-test.xml back, in place of
	 * Spring Boot's defaults that an application started here configured.
	 */
	@AfterEach
	void restoreTheTestLogging() throws JoranException {
		LoggerContext logging = (LoggerContext) LoggerFactory.getILoggerFactory();
		logging.reset();
		new ContextInitializer(logging).autoConfig();
	}

	@Test
	void anApplicationThatLocksLogsNoInfoLineOfZooKeeperOrCuratorByDefault(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start()) {
			context.getBean(LockTemplate.class).execute("quiet", (lock) -> "locked");
		}
		assertThat(output.getOut()).contains("Started");
		assertThat(infoLinesOfZooKeeperOrCurator(output)).isEmpty();
	}

	@Test
	void aLevelTheApplicationSetsWins(CapturedOutput output) {
		try (ConfigurableApplicationContext context = start("--logging.level.org.apache.zookeeper=info")) {
			context.getBean(LockTemplate.class).execute("chatty", (lock) -> "locked");
		}
		assertThat(infoLinesOfZooKeeperOrCurator(output)).isNotEmpty();
	}

	@ParameterizedTest(name = "{0}={1} gives {2}")
	@CsvSource(nullValues = "none",
			value = { "none, none, warn", "logging.level.root, debug, warn", "logging.level.org.apache, info, none",
					"logging.level.org, debug, none", "logging.level.org.apache.zookeeper, info, none",
					"logging.level.org.apache.zookeeper, error, none" })
	void defaultsZooKeeperToWarnUnlessTheApplicationSetsALevelForItOrAPackageAbove(String property, String level,
			String effective) {
		StandardEnvironment environment = new StandardEnvironment();
		if (property != null) {
			environment.getPropertySources().addFirst(new MapPropertySource("application", Map.of(property, level)));
		}
		new ZooKeeperClientLogLevel().postProcessEnvironment(environment, new SpringApplication());
		if (effective == null) {
			assertThat(environment.getProperty("logging.level.org.apache.zookeeper"))
				.isEqualTo(property.equals("logging.level.org.apache.zookeeper") ? level : null);
		}
		else {
			assertThat(environment.getProperty("logging.level.org.apache.zookeeper")).isEqualTo(effective);
			assertThat(environment.getProperty("logging.level.org.apache.curator")).isEqualTo(effective);
		}
	}

	private static ConfigurableApplicationContext start(String... arguments) {
		String[] all = new String[arguments.length + 2];
		all[0] = "--distributed-lock.zookeeper.connect-string=" + zookeeper.connectString();
		all[1] = "--logging.config=classpath:default-application-logback.xml";
		System.arraycopy(arguments, 0, all, 2, arguments.length);
		return new SpringApplicationBuilder(LockingApplication.class).web(WebApplicationType.NONE).run(all);
	}

	private static List<String> infoLinesOfZooKeeperOrCurator(CapturedOutput output) {
		return Arrays.stream(output.getOut().split("\\R"))
			.filter((line) -> line.contains(" INFO "))
			.filter((line) -> ZOOKEEPER_OR_CURATOR_LOGGER.matcher(line).find())
			.toList();
	}

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

	@Configuration(proxyBeanMethods = false)
	@ImportAutoConfiguration({ ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class })
	static class LockingApplication {

	}

}
