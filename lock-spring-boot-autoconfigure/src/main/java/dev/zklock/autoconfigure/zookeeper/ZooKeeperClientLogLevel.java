package dev.zklock.autoconfigure.zookeeper;

import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.env.DefaultPropertiesPropertySource;
import org.springframework.core.env.ConfigurableEnvironment;

/**
 * Keeps the reconnection attempts of ZooKeeper's client out of the application's log by
 * default: while ZooKeeper is unreachable, {@code org.apache.zookeeper.ClientCnxn} logs a
 * warning with a stack trace every second or two. zklock reports the outage in one line
 * when it starts and one when it ends, so the default level of that one logger becomes
 * {@code error}, where its real errors stay visible.
 * <p>
 * The default yields to the application: it applies only while no level is set for that
 * logger or a package above it, or the level set is {@code warn} (an application that
 * turned ZooKeeper down to warnings did not ask for a warning a second). Set
 * {@code logging.level.org.apache.zookeeper.ClientCnxn=warn} to see every attempt.
 */
class ZooKeeperClientLogLevel implements EnvironmentPostProcessor {

	static final String LOGGER = "org.apache.zookeeper.ClientCnxn";

	private static final List<String> LOGGER_AND_PACKAGES = List.of(LOGGER, "org.apache.zookeeper", "org.apache",
			"org");

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Map<String, String> levels = Binder.get(environment)
			.bind("logging.level", Bindable.mapOf(String.class, String.class))
			.orElseGet(Map::of);
		if (nearestLevelSet(levels).map((level) -> level.equalsIgnoreCase("warn")).orElse(true)) {
			DefaultPropertiesPropertySource.addOrMerge(Map.of("logging.level." + LOGGER, "error"),
					environment.getPropertySources());
		}
	}

	private static Optional<String> nearestLevelSet(Map<String, String> levels) {
		for (String name : LOGGER_AND_PACKAGES) {
			for (Map.Entry<String, String> level : levels.entrySet()) {
				if (level.getKey().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
					return Optional.of(level.getValue().trim());
				}
			}
		}
		return Optional.empty();
	}

}
