package dev.zklock.integration.leader;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.testsupport.process.JavaCommand;
import dev.zklock.testsupport.process.JvmProcess;
import dev.zklock.testsupport.process.OutputLines;

import static org.awaitility.Awaitility.await;

/**
 * A {@link CandidateWorker} in its own JVM, seen from the test: its lines are collected
 * as they come, and it can be killed ({@code kill -9}) or told to stop.
 */
final class CandidateProcess implements AutoCloseable {

	private final JvmProcess process;

	private final List<String> lines;

	private CandidateProcess(JvmProcess process, List<String> lines) {
		this.process = process;
		this.lines = lines;
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
		List<String> lines = new CopyOnWriteArrayList<>();
		JvmProcess process = JvmProcess.start("candidate " + name,
				JavaCommand.mainClass(CandidateWorker.class.getName())
					.jvmOptions("-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-XX:-UsePerfData",
							"-Dlogging.level.root=WARN")
					.arguments(connectString, sessionTimeout.toMillis() + "ms", role),
				new OutputLines() {

					@Override
					public void line(String line) {
						lines.add(line);
					}

					@Override
					public void ended() {
						lines.add("(output ended)");
					}

				});
		return new CandidateProcess(process, lines);
	}

	long pid() {
		return this.process.pid();
	}

	@Override
	public String toString() {
		return this.process.toString();
	}

	/**
	 * Waits until the candidate has printed a line with the prefix.
	 * @param prefix the line's beginning
	 * @param timeout how long to wait
	 * @return the first such line
	 */
	String awaitLine(String prefix, Duration timeout) {
		return await().atMost(timeout)
			.alias(this + " printing " + prefix + " (printed " + this.lines + ")")
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
	void kill() {
		this.process.kill();
	}

	/**
	 * Tells the candidate to stop and waits for it to exit.
	 * @param timeout how long to wait
	 * @return the exit status, or -1 if it has not exited in time
	 * @throws InterruptedException if interrupted while waiting
	 */
	int stop(Duration timeout) throws InterruptedException {
		this.process.send("stop");
		return this.process.awaitExit(timeout) ? this.process.exitValue() : -1;
	}

	/**
	 * Kills the candidate if it still runs.
	 */
	@Override
	public void close() {
		this.process.close();
	}

}
