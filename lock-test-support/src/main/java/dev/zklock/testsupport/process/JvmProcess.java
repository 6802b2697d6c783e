package dev.zklock.testsupport.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStreamWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started as a process of its own, seen from the JVM that started it: lines go to
 * its standard input, its output (standard output and error merged) goes to a file or,
 * line by line, to the caller, and it can be stopped ({@code SIGTERM}), killed
 * ({@code kill -9}), paused ({@code kill -STOP}) and resumed ({@code kill -CONT}). What
 * the lines mean is up to the caller.
 */
public final class JvmProcess implements AutoCloseable {

	private static final Duration EXIT_WAIT = Duration.ofSeconds(10);

	private final String name;

	private final Process process;

	private JvmProcess(String name, Process process) {
		this.name = name;
		this.process = process;
	}

	/**
	 * Starts a JVM whose output goes to a file.
	 * @param name what the JVM is, for messages, such as {@code worker w1}
	 * @param command the command
	 * @param output where its output goes, such as
	 * {@code ProcessBuilder.Redirect.appendTo(log)}
	 * @return the started JVM
	 * @throws UncheckedIOException if it cannot be started
	 */
	public static JvmProcess start(String name, JavaCommand command, ProcessBuilder.Redirect output) {
		return new JvmProcess(name,
				start(name, command.toProcessBuilder().redirectErrorStream(true).redirectOutput(output)));
	}

	/**
	 * Starts a JVM whose output the caller reads line by line.
	 * @param name what the JVM is, for messages, such as {@code worker w1}
	 * @param command the command
	 * @param output what receives its lines, on a daemon thread named after the process
	 * @return the started JVM
	 * @throws UncheckedIOException if it cannot be started
	 */
	public static JvmProcess start(String name, JavaCommand command, OutputLines output) {
		JvmProcess started = new JvmProcess(name, start(name, command.toProcessBuilder().redirectErrorStream(true)));
		Thread reader = new Thread(() -> started.readOutput(output), "output of " + started);
		reader.setDaemon(true);
		reader.start();
		return started;
	}

	private static Process start(String name, ProcessBuilder builder) {
		try {
			return builder.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start " + name + ": " + builder.command(), ex);
		}
	}

	private void readOutput(OutputLines output) {
		try (BufferedReader lines = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8))) {
			for (String line = lines.readLine(); line != null; line = lines.readLine()) {
				output.line(line);
			}
		}
		catch (IOException ex) {
			// The process or the receiver is gone: no more lines come either way
		}
		output.ended();
	}

	/**
	 * The JVM's process id.
	 * @return the process id
	 */
	public long pid() {
		return this.process.pid();
	}

	/**
	 * Whether the JVM still runs (paused or not).
	 * @return whether it runs
	 */
	public boolean isAlive() {
		return this.process.isAlive();
	}

	/**
	 * Writes a line to the JVM's standard input.
	 * @param line the line, without its end
	 * @throws UncheckedIOException if the JVM does not take it, having exited
	 */
	public synchronized void send(String line) {
		try {
			// A writer of its own per line: it holds no state between whole lines
			Writer input = new OutputStreamWriter(this.process.getOutputStream(), StandardCharsets.UTF_8);
			input.write(line + "\n");
			input.flush();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(this + " did not take '" + line + "'", ex);
		}
	}

	/**
	 * Waits for the JVM to exit.
	 * @param timeout how long to wait
	 * @return whether it exited in time
	 * @throws InterruptedException if interrupted while waiting
	 */
	public boolean awaitExit(Duration timeout) throws InterruptedException {
		return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
	}

	/**
	 * The JVM's exit status.
	 * @return the exit status
	 * @throws IllegalThreadStateException if it has not exited
	 */
	public int exitValue() {
		return this.process.exitValue();
	}

	/**
	 * Stops the JVM with {@code SIGTERM}, which runs its shutdown hooks, and kills it if
	 * it has not exited within the grace period.
	 * @param grace how long it may take to exit
	 * @throws InterruptedException if interrupted while waiting
	 */
	public void stop(Duration grace) throws InterruptedException {
		this.process.destroy();
		if (!awaitExit(grace)) {
			kill();
		}
	}

	/**
	 * Kills the JVM at once, like {@code kill -9}, and waits up to ten seconds for it to
	 * be gone; an interrupt while waiting is kept for the caller.
	 */
	public void kill() {
		this.process.destroyForcibly();
		try {
			awaitExit(EXIT_WAIT);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * Freezes the JVM ({@code kill -STOP}), as a long GC pause or a frozen VM would.
	 * @throws IOException if {@code kill} cannot run
	 * @throws InterruptedException if interrupted while {@code kill} runs
	 */
	public void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	/**
	 * Lets a paused JVM run again ({@code kill -CONT}).
	 * @throws IOException if {@code kill} cannot run
	 * @throws InterruptedException if interrupted while {@code kill} runs
	 */
	public void resume() throws IOException, InterruptedException {
		signal("CONT");
	}

	private void signal(String signal) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(pid())).inheritIO().start();
		if (kill.waitFor() != 0) {
			throw new IllegalStateException("kill -" + signal + " of " + this + " failed");
		}
	}

	/**
	 * Kills the JVM if it still runs, paused or not.
	 */
	@Override
	public void close() {
		if (isAlive()) {
			kill();
		}
	}

	@Override
	public String toString() {
		return this.name + " (pid " + pid() + ")";
	}

}
