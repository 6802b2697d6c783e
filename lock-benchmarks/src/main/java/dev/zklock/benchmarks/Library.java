package dev.zklock.benchmarks;

import java.util.Arrays;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * The lock libraries the benchmarks compare, each named as on the command line.
 */
enum Library {

	/**
	 * Raw Curator {@code InterProcessMutex}: the baseline of every ratio.
	 */
	CURATOR("curator"),

	/**
	 * Spring Integration's {@code ZookeeperLockRegistry}.
	 */
	SPRING_INTEGRATION("spring-integration"),

	/**
	 * zklock through {@code @DistributedLock}.
	 */
	ZKLOCK_ANNOTATION("ours-annotation"),

	/**
	 * zklock through {@code LockTemplate}.
	 */
	ZKLOCK_TEMPLATE("ours-template");

	private final String id;

	Library(String id) {
		this.id = id;
	}

	String id() {
		return this.id;
	}

	/**
	 * Whether the library takes {@code distributed-lock.*} properties.
	 * @return whether it is zklock
	 */
	boolean isConfigurable() {
		return this == ZKLOCK_ANNOTATION || this == ZKLOCK_TEMPLATE;
	}

	/**
	 * Connects the library to ZooKeeper.
	 * @param connectString the ZooKeeper connect string
	 * @param rootPath the node under which the library creates its locks
	 * @param properties properties of a configurable library
	 * @return the connected driver
	 */
	LockDriver open(String connectString, String rootPath, Map<String, String> properties) {
		return switch (this) {
			case CURATOR -> new CuratorDriver(connectString, rootPath);
			case SPRING_INTEGRATION -> new SpringIntegrationDriver(connectString, rootPath);
			case ZKLOCK_ANNOTATION -> ZkLockDriver.annotation(connectString, rootPath, properties);
			case ZKLOCK_TEMPLATE -> ZkLockDriver.template(connectString, rootPath, properties);
		};
	}

	static Library of(String id) {
		return Arrays.stream(values())
			.filter((library) -> library.id.equals(id))
			.findFirst()
			.orElseThrow(() -> new IllegalArgumentException("Unknown library '" + id + "'; known: "
					+ Arrays.stream(values()).map(Library::id).collect(Collectors.joining(", "))));
	}

}
