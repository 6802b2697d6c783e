package dev.zklock.sample;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.zklock.testsupport.process.JavaCommand;
import dev.zklock.testsupport.process.JvmProcess;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An instance of the sample application started from its packaged jar in a JVM of its
 * own, in AOT mode ({@code -Dspring.aot.enabled=true}), with an HTTP client for it. Its
 * output goes to {@code NAME.log}, and the classes its JVM loads, with where each came
 * from, to {@code NAME-classes.log}, both in the given directory.
 */
final class SampleProcess extends SampleClient implements AutoCloseable {

	private static final Pattern STARTED = Pattern.compile("Tomcat started on port (\\d+)");

	private static final Duration START_TIMEOUT = Duration.ofMinutes(2);

	private final JvmProcess process;

	private final Path log;

	private final Path classLog;

	private SampleProcess(JvmProcess process, Path log, Path classLog, int port) {
		super(port);
		this.process = process;
		this.log = log;
		this.classLog = classLog;
	}

	/**
	 * Starts an instance on a free port and waits until it serves HTTP.
	 * @param jar the application's jar, processed ahead of time
	 * @param name the instance's name, used for its files
	 * @param directory where its files go
	 * @param zooKeeperConnect the ZooKeeper connect string, given as
	 * {@code ZOOKEEPER_CONNECT} to the profile {@code ensemble}
	 * @param args more command-line arguments
	 * @return the running instance
	 */
	static SampleProcess start(Path jar, String name, Path directory, String zooKeeperConnect, String... args) {
		Path log = directory.resolve(name + ".log");
		Path classLog = directory.resolve(name + "-classes.log");
		JvmProcess process = JvmProcess.start("instance " + name,
				JavaCommand.jar(jar)
					.jvmOptions("-Dspring.aot.enabled=true", "-Xlog:class+load=info:file=" + classLog, "-Xmx256m",
							"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1")
					.arguments("--spring.profiles.active=ensemble", "--server.port=0")
					.arguments(args)
					.environment("ZOOKEEPER_CONNECT", zooKeeperConnect),
				ProcessBuilder.Redirect.to(log.toFile()));
		try {
			await().atMost(START_TIMEOUT).until(() -> !process.isAlive() || STARTED.matcher(read(log)).find());
		}
		finally {
			if (!STARTED.matcher(read(log)).find()) {
				process.kill();
			}
		}
		Matcher started = STARTED.matcher(read(log));
		assertThat(started.find()).as("%s started; its output:%n%s", name, read(log)).isTrue();
		return new SampleProcess(process, log, classLog, Integer.parseInt(started.group(1)));
	}

	/**
	 * What the instance has written so far.
	 * @return its output
	 */
	String output() {
		return read(this.log);
	}

	/**
	 * The classes the instance's JVM has loaded so far, one line each, with where each
	 * came from.
	 * @return the lines of the class-loading log
	 */
	List<String> loadedClasses() {
		return read(this.classLog).lines().toList();
	}

	private static String read(Path file) {
		try {
			return Files.exists(file) ? Files.readString(file) : "";
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	@Override
	public void close() throws InterruptedException {
		this.process.stop(Duration.ofSeconds(30));
	}

}
