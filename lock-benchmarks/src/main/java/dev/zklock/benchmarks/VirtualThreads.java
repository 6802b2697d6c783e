package dev.zklock.benchmarks;

import java.util.Optional;
import java.util.concurrent.ThreadFactory;

/**
 * Virtual threads, from code compiled for Java 17: found by reflection on Java 21 and
 * later, where they are final.
 */
final class VirtualThreads {

	private static final int FIRST_RELEASE = 21;

	private VirtualThreads() {
	}

	/**
	 * Why this JVM cannot run virtual threads, if it cannot.
	 * @return the reason, or empty on Java 21 and later
	 */
	static Optional<String> unsupportedReason() {
		if (Runtime.version().feature() >= FIRST_RELEASE) {
			return Optional.empty();
		}
		return Optional.of("virtual threads need Java " + FIRST_RELEASE + " or later, and the harness (whose java "
				+ "runs the workers too) runs on Java " + Runtime.version() + "; start it with a later java, "
				+ "such as JAVA_HOME=/usr/lib/jvm/temurin-25-jdk-amd64");
	}

	/**
	 * A factory of virtual threads.
	 * @return the factory
	 * @throws IllegalStateException before Java 21
	 */
	static ThreadFactory factory() {
		unsupportedReason().ifPresent((reason) -> {
			throw new IllegalStateException(reason);
		});
		try {
			Object builder = Thread.class.getMethod("ofVirtual").invoke(null);
			return (ThreadFactory) Class.forName("java.lang.Thread$Builder").getMethod("factory").invoke(builder);
		}
		catch (ReflectiveOperationException ex) {
			throw new IllegalStateException("Cannot make virtual threads on Java " + Runtime.version(), ex);
		}
	}

}
