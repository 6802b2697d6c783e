package dev.zklock.testsupport.process;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The command that starts another JVM with the running JVM's {@code java}: a main class
 * on the running JVM's class path, so that the other JVM runs exactly the caller's code
 * and libraries, or an application's jar. Options, arguments and environment variables
 * are added in the order given.
 */
public final class JavaCommand {

	private final List<String> launch;

	private final List<String> jvmOptions = new ArrayList<>();

	private final List<String> arguments = new ArrayList<>();

	private final Map<String, String> environment = new LinkedHashMap<>();

	private JavaCommand(List<String> launch) {
		this.launch = launch;
	}

	/**
	 * A command that runs a main class on the running JVM's class path.
	 * @param mainClass the main class's name
	 * @return the command
	 */
	public static JavaCommand mainClass(String mainClass) {
		return new JavaCommand(List.of("-cp", System.getProperty("java.class.path"), mainClass));
	}

	/**
	 * A command that runs an application's jar.
	 * @param jar the jar
	 * @return the command
	 */
	public static JavaCommand jar(Path jar) {
		return new JavaCommand(List.of("-jar", jar.toString()));
	}

	/**
	 * Adds options of the JVM, such as {@code -Xmx256m}.
	 * @param options the options
	 * @return this command
	 */
	public JavaCommand jvmOptions(List<String> options) {
		this.jvmOptions.addAll(options);
		return this;
	}

	/**
	 * Adds options of the JVM, such as {@code -Xmx256m}.
	 * @param options the options
	 * @return this command
	 */
	public JavaCommand jvmOptions(String... options) {
		return jvmOptions(List.of(options));
	}

	/**
	 * Adds arguments of the main class or the application.
	 * @param arguments the arguments
	 * @return this command
	 */
	public JavaCommand arguments(String... arguments) {
		this.arguments.addAll(List.of(arguments));
		return this;
	}

	/**
	 * Sets an environment variable of the JVM, besides those it inherits.
	 * @param name the variable's name
	 * @param value its value
	 * @return this command
	 */
	public JavaCommand environment(String name, String value) {
		this.environment.put(name, value);
		return this;
	}

	/**
	 * A process builder of the command line ({@code java}, the JVM's options, the main
	 * class or jar, and the arguments) and its environment, for the caller to redirect
	 * the JVM's input and output and start it.
	 * @return the process builder
	 */
	public ProcessBuilder toProcessBuilder() {
		List<String> command = new ArrayList<>();
		command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
		command.addAll(this.jvmOptions);
		command.addAll(this.launch);
		command.addAll(this.arguments);
		ProcessBuilder builder = new ProcessBuilder(command);
		builder.environment().putAll(this.environment);
		return builder;
	}

}
