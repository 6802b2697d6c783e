package dev.zklock.benchmarks;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * One column of the comparison: a library under a name, with properties for a
 * configurable library. The built-in variants are the libraries themselves; more are
 * written {@code name=library:property=value,property=value}, for example
 * {@code ours-no-handoff=ours-template:distributed-lock.hand-off.enabled=false}. The same
 * text form travels to worker JVMs and JMH's forks.
 *
 * @param name the name in reports, also the last segment of the root path
 * @param library the library
 * @param properties properties given to the library
 */
record Variant(String name, Library library, Map<String, String> properties) {

	Variant {
		if (!name.matches("[a-z0-9][a-z0-9-]*")) {
			throw new IllegalArgumentException(
					"Variant name '" + name + "' must be lower-case letters, digits and dashes");
		}
		if (!properties.isEmpty() && !library.isConfigurable()) {
			throw new IllegalArgumentException(
					"Variant '" + name + "': " + library.id() + " takes no properties, only zklock and queue-node do");
		}
		properties = Map.copyOf(properties);
	}

	/**
	 * The variant that is the library as it comes.
	 * @param library the library
	 * @return its variant
	 */
	static Variant of(Library library) {
		return new Variant(library.id(), library, Map.of());
	}

	/**
	 * Reads a variant from its text form.
	 * @param text {@code name=library:property=value,...}, or a library's name
	 * @return the variant
	 */
	static Variant parse(String text) {
		int equals = text.indexOf('=');
		if (equals < 0) {
			return of(Library.of(text));
		}
		String name = text.substring(0, equals);
		String definition = text.substring(equals + 1);
		int colon = definition.indexOf(':');
		Library library = Library.of((colon < 0) ? definition : definition.substring(0, colon));
		Map<String, String> properties = new LinkedHashMap<>();
		if (colon >= 0) {
			for (String property : definition.substring(colon + 1).split(",")) {
				int split = property.indexOf('=');
				if (split <= 0) {
					throw new IllegalArgumentException("Variant '" + name + "': '" + property + "' is not name=value");
				}
				properties.put(property.substring(0, split), property.substring(split + 1));
			}
		}
		return new Variant(name, library, properties);
	}

	/**
	 * The text form that {@link #parse(String)} reads back.
	 * @return the text form
	 */
	String toText() {
		String text = this.name + "=" + this.library.id();
		if (this.properties.isEmpty()) {
			return text;
		}
		return text + ":"
				+ this.properties.entrySet()
					.stream()
					.sorted(Map.Entry.comparingByKey())
					.map((property) -> property.getKey() + "=" + property.getValue())
					.collect(Collectors.joining(","));
	}

	/**
	 * The node under which this variant's locks live, apart from every other variant's.
	 * @return the root path
	 */
	String rootPath() {
		return "/bench/" + this.name;
	}

	boolean isBaseline() {
		return equals(of(Library.CURATOR));
	}

	boolean isLimit() {
		return this.library.isLimit();
	}

	boolean runsIn(Scenario scenario) {
		return this.library.runsIn(scenario);
	}

	LockDriver open(RunEndpoints endpoints) {
		return this.library.open(endpoints, rootPath(), this.properties);
	}

}
