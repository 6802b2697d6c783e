package dev.zklock.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;

/**
 * The command lines of the JVMs the harness starts: the running JVM's {@code java} and
 * class path, so that the ZooKeeper server and the workers run exactly the harness's code
 * and libraries.
 */
final class JavaCommand {

	private JavaCommand() {
	}

	/**
	 * A command that runs a main class.
	 * @param jvmOptions options of the JVM, such as {@code -Xmx512m}
	 * @param mainClass the main class
	 * @param arguments the arguments of {@code main}
	 * @return the command
	 */
	static List<String> of(List<String> jvmOptions, String mainClass, List<String> arguments) {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(jvmOptions);
		command.add("-cp");
		command.add(System.getProperty("java.class.path"));
		command.add(mainClass);
		command.addAll(arguments);
		return command;
	}

}
