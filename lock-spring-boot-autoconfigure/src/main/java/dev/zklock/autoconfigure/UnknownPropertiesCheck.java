package dev.zklock.autoconfigure;

import java.util.ArrayList;
import java.util.List;

import dev.zklock.autoconfigure.UnknownPropertiesException.UnknownProperty;

import org.springframework.boot.EnvironmentPostProcessor;
import org.springframework.boot.SpringApplication;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.source.ConfigurationProperty;
import org.springframework.boot.context.properties.source.ConfigurationPropertyName;
import org.springframework.boot.context.properties.source.ConfigurationPropertySource;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.context.properties.source.IterableConfigurationPropertySource;
import org.springframework.core.env.ConfigurableEnvironment;
import org.springframework.core.env.PropertySource;

/**
 * Fails start-up with an {@link UnknownPropertiesException} when a property under
 * {@code distributed-lock.} names nothing that the zklock modules on the class path
 * define ({@link KnownProperties}): a misspelled name would otherwise be ignored, and its
 * default used in silence. Runs once the application's configuration files are loaded,
 * before the application context starts, so that it comes before any failure that the
 * misspelling causes (a misspelled connect string is reported as such, not as a missing
 * one). Every property source that can list its names is checked: files, command-line
 * arguments, system properties and environment variables.
 * {@code distributed-lock.fail-on-unknown-properties=false} turns the check off.
 */
class UnknownPropertiesCheck implements EnvironmentPostProcessor {

	static final String ENABLED = "distributed-lock.fail-on-unknown-properties";

	@Override
	public void postProcessEnvironment(ConfigurableEnvironment environment, SpringApplication application) {
		if (!Binder.get(environment).bind(ENABLED, Boolean.class).orElse(true)) {
			return;
		}
		KnownProperties known = KnownProperties.load(application.getClassLoader());
		if (known.isEmpty()) {
			// No metadata to check against (resources left out of a native image)
			return;
		}
		List<UnknownProperty> unknown = new ArrayList<>();
		for (ConfigurationPropertySource source : ConfigurationPropertySources.get(environment)) {
			if (source instanceof IterableConfigurationPropertySource names) {
				names.stream()
					.filter((name) -> KnownProperties.isBelowNamespace(name) && !known.isKnown(name))
					.forEach((name) -> unknown
						.add(new UnknownProperty(name.toString(), origin(source, name), known.closest(name))));
			}
		}
		if (!unknown.isEmpty()) {
			throw new UnknownPropertiesException(unknown);
		}
	}

	private static String origin(ConfigurationPropertySource source, ConfigurationPropertyName name) {
		ConfigurationProperty property = source.getConfigurationProperty(name);
		if (property != null && property.getOrigin() != null) {
			return property.getOrigin().toString();
		}
		Object underlying = source.getUnderlyingSource();
		return "property source \""
				+ ((underlying instanceof PropertySource<?> propertySource) ? propertySource.getName() : underlying)
				+ "\"";
	}

}
