package dev.zklock.integration.leader;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import static org.awaitility.Awaitility.await;

/**
 * A {@link CandidateWorker} in its own JVM, seen from the test: its lines are collected
 * as they come, and it can be killed ({@code kill -9}) or told to stop.
 */
final class CandidateProcess implements AutoCloseable {

	private final String name;

	private final Process process;

	private final List<String> lines = new CopyOnWriteArrayList<>();

	private CandidateProcess(String name, Process process) {
		this.name = name;
		this.process = process;
		Thread reader = new Thread(this::collectLines, "output of " + name);
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Starts a candidate: the running JVM's {@code java} with the test class path.
	 * @param name the candidate's name, for its output and messages
	 * @param connectString the ZooKeeper connect string
	 * @param sessionTimeout the candidate's session timeout
	 * @param role the role it runs for
	 * @return the started candidate
	 */
	static CandidateProcess start(String name, String connectString, Duration sessionTimeout, String role) {
		List<String> command = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
				System.getProperty("java.class.path"), "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC",
				"-XX:-UsePerfData", "-Dlogging.level.root=WARN", CandidateWorker.class.getName(), connectString,
				sessionTimeout.toMillis() + "ms", role);
		try {
			return new CandidateProcess(name,
					new ProcessBuilder(command).redirectError(ProcessBuilder.Redirect.INHERIT).start());
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	long pid() {
		return this.process.pid();
	}

	/**
	 * Waits until the candidate has printed a line with the prefix.
	 * @param prefix the line's beginning
	 * @param timeout how long to wait
	 * @return the first such line
	 */
	String awaitLine(String prefix, Duration timeout) {
		return await().atMost(timeout)
			.alias(this.name + " printing " + prefix + " (printed " + this.lines + ")")
			.until(() -> this.lines.stream().filter((line) -> line.startsWith(prefix)).findFirst().orElse(null),
					(line) -> line != null);
	}

	/**
	 * Whether the candidate printed a line with the prefix.
	 * @param prefix the line's beginning
	 * @return whether it did
	 */
	boolean printed(String prefix) {
		return this.lines.stream().anyMatch((line) -> line.startsWith(prefix));
	}

	/**
	 * Kills the candidate at once ({@code kill -9}): its ZooKeeper session outlives it
	 * until the session timeout.
	 */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

	/**
	 * Tells the candidate to stop and waits for it to exit.
	 * @param timeout how long to wait
	 * @return the exit status, or -1 if it has not exited in time
	 */
	int stop(Duration timeout) throws IOException, InterruptedException {
		Writer input = new OutputStreamWriter(this.process.getOutputStream(), StandardCharsets.UTF_8);
		input.write("stop\n");
		input.flush();
		return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) ? this.process.exitValue() : -1;
	}

	private void collectLines() {
		try (BufferedReader output = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
			String line;
			while ((line = output.readLine()) != null) {
				this.lines.add(line);
			}
		}
		catch (IOException ex) {
			this.lines.add("(output ended: " + ex + ")");
		}
	}

	/**
	 * Kills the candidate if it still runs.
	 */
	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			kill();
		}
	}

	@Override
	public String toString() {
		return "candidate " + this.name + " (pid " + this.process.pid() + ")";
	}

}
