package dev.zklock.faults;

import java.nio.file.Path;

/**
 * How the suite starts other JVMs: the running JVM's {@code java} with the test
 * classpath, so that ZooKeeper servers and workers run exactly the code under test.
 */
final class JavaCommand {

	private JavaCommand() {
	}

	static String java() {
		return Path.of(System.getProperty("java.home"), "bin", "java").toString();
	}

	static String classpath() {
		return System.getProperty("java.class.path");
	}

}
