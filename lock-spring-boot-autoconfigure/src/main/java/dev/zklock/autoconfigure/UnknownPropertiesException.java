package dev.zklock.autoconfigure;

import java.util.List;
import java.util.stream.Collectors;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at start-up when properties under {@code distributed-lock.} name nothing that
 * the zklock modules on the class path define, such as a misspelled
 * {@code distributed-lock.wait-tme}. Spring Boot's failure analysis reports each with
 * where it came from and the known property it is closest to.
 */
public class UnknownPropertiesException extends IllegalStateException {

	/** The unknown properties, in the order of their property sources. */
	private final List<UnknownProperty> properties;

	UnknownPropertiesException(List<UnknownProperty> properties) {
		super("Unknown properties under 'distributed-lock.': "
				+ properties.stream().map(UnknownProperty::toString).collect(Collectors.joining("; "))
				+ " (distributed-lock.fail-on-unknown-properties=false ignores them)");
		this.properties = List.copyOf(properties);
	}

	/**
	 * The unknown properties, in the order of their property sources.
	 * @return the unknown properties
	 */
	public List<UnknownProperty> getProperties() {
		return this.properties;
	}

	/**
	 * A property that nothing defines.
	 *
	 * @param name the property's name, as Spring Boot reads it from its source (an
	 * environment variable's name in lower case, with dots for its underscores)
	 * @param origin where the property came from: its file and line, its environment
	 * variable, or its property source
	 * @param suggestion the known property closest to it, or {@code null} when none is
	 * close
	 */
	public record UnknownProperty(String name, String origin, @Nullable String suggestion) {

		@Override
		public String toString() {
			return this.name + " (from " + this.origin + ")"
					+ ((this.suggestion != null) ? ", did you mean " + this.suggestion + "?" : "");
		}

	}

}
