package dev.zklock.benchmarks;

import java.util.Arrays;
import java.util.stream.Collectors;

/**
 * The scenarios of a benchmark run, named as on the command line and listed in the order
 * they run.
 */
enum Scenario {

	/**
	 * One thread acquires and releases one key, measured by JMH.
	 */
	UNCONTENDED("uncontended", "uncontended cycle (JMH)"),

	/**
	 * Threads of one JVM take turns on one key.
	 */
	HOT_KEY("hot-key", "one hot key"),

	/**
	 * Threads of two JVMs take turns on one key.
	 */
	TWO_JVMS("two-jvms", "one hot key, two JVMs"),

	/**
	 * Sixteen threads each lock a key of their own.
	 */
	SIXTEEN_KEYS("sixteen-keys", "16 keys"),

	/**
	 * Threads lock many distinct keys once each.
	 */
	MANY_KEYS("many-keys", "distinct keys");

	private final String id;

	private final String title;

	Scenario(String id, String title) {
		this.id = id;
		this.title = title;
	}

	String id() {
		return this.id;
	}

	String title() {
		return this.title;
	}

	static Scenario of(String id) {
		return Arrays.stream(values())
			.filter((scenario) -> scenario.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("Unknown scenario '" + id + "'; known: "
					+ Arrays.stream(values()).map(Scenario::id).collect(Collectors.joining(", "))));
	}

}
