package dev.zklock.benchmarks;

import java.util.Map;

/**
 * The lock libraries the benchmarks compare, named on the command line {@code curator},
 * {@code spring-integration}, {@code ours-annotation} and {@code ours-template}.
 */
enum Library {

	/**
	 * Raw Curator {@code InterProcessMutex}: the baseline of every ratio.
	 */
	CURATOR,

	/**
	 * Spring Integration's {@code ZookeeperLockRegistry}.
	 */
	SPRING_INTEGRATION,

	/**
	 * zklock through {@code @DistributedLock}.
	 */
	OURS_ANNOTATION,

	/**
	 * zklock through {@code LockTemplate}.
	 */
	OURS_TEMPLATE;

	String id() {
		return CommandLineNames.of(this);
	}

	/**
	 * Whether the library takes {@code distributed-lock.*} properties.
	 * @return whether it is zklock
	 */
	boolean isConfigurable() {
		return this == OURS_ANNOTATION || this == OURS_TEMPLATE;
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
			case OURS_ANNOTATION -> ZkLockDriver.annotation(connectString, rootPath, properties);
			case OURS_TEMPLATE -> ZkLockDriver.template(connectString, rootPath, properties);
		};
	}

	static Library of(String id) {
		return CommandLineNames.parse(Library.class, id);
	}

}
