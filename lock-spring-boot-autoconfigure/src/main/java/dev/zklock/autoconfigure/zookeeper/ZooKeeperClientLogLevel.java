package dev.zklock.autoconfigure.zookeeper;

import java.util.ArrayList;
import java.util.LinkedHashMap;
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
 * Keeps ZooKeeper's and Curator's routine messages out of the application's log by
 * default, as low-precedence default properties that any level the application sets
 * overrides.
 * <ul>
 * <li>{@code org.apache.zookeeper} and {@code org.apache.curator} log at {@code warn}: at
 * {@code info} they log the client's environment, every connection and every session,
 * most of a new application's log. Applies while no level is set for the package or a
 * package above it ({@code org.apache}, {@code org}; the root level does not count).</li>
 * <li>{@code org.apache.zookeeper.ClientCnxn} logs at {@code error}: while ZooKeeper is
 * unreachable it logs a warning with a stack trace every second or two, and zklock
 * reports the outage in one line when it starts and one when it ends. Applies while no
 * level is set for that logger or a package above it, or the level set is {@code warn}
 * (an application that turned ZooKeeper down to warnings did not ask for a warning a
 * second). Set {@code logging.level.org.apache.zookeeper.ClientCnxn=warn} to see every
 * attempt.</li>
 * </ul>
 */
class ZooKeeperClientLogLevel implements EnvironmentPostProcessor {

	static final String LOGGER = "org.apache.zookeeper.ClientCnxn";

	static final List<String> PACKAGES = List.of("org.apache.zookeeper", "org.apache.curator");

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		Map<String, String> levels = Binder.get(environment)
			.bind("logging.level", Bindable.mapOf(String.class, String.class))
			.orElseGet(Map::of);
		Map<String, Object> defaults = new LinkedHashMap<>();
		for (String name : PACKAGES) {
			if (nearestLevelSet(levels, name).isEmpty()) {
				defaults.put("logging.level." + name, "warn");
			}
		}
		if (nearestLevelSet(levels, LOGGER).map((level) -> level.equalsIgnoreCase("warn")).orElse(true)) {
			defaults.put("logging.level." + LOGGER, "error");
		}
		if (!defaults.isEmpty()) {
			DefaultPropertiesPropertySource.addOrMerge(defaults, environment.getPropertySources());
		}
	}

	private static Optional<String> nearestLevelSet(Map<String, String> levels, String logger) {
		List<String> loggerAndPackages = new ArrayList<>();
		for (String name = logger; name.contains("."); name = name.substring(0, name.lastIndexOf('.'))) {
			loggerAndPackages.add(name);
		}
		loggerAndPackages.add(logger.substring(0, logger.indexOf('.')));
		for (String name : loggerAndPackages) {
			for (Map.Entry<String, String> level : levels.entrySet()) {
				if (level.getKey().toLowerCase(Locale.ROOT).equals(name.toLowerCase(Locale.ROOT))) {
					return Optional.of(level.getValue().trim());
				}
			}
		}
		return Optional.empty();
	}

}
