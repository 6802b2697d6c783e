package dev.zklock.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.io.OutputStreamWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A {@link FaultWorker} in its own JVM, seen from the test: commands go to its standard
 * input, its output goes to {@code NAME.log} in the run's directory, and its history to
 * the {@link FencedStore}. It can be killed, paused and resumed like any process.
 */
final class WorkerProcess implements AutoCloseable {

	private final String name;

	private final FencedStore store;

	private final Process process;

	private final Writer commands;

	private WorkerProcess(String name, FencedStore store, Process process) {
		this.name = name;
		this.store = store;
		this.process = process;
		this.commands = new OutputStreamWriter(process.getOutputStream(), StandardCharsets.UTF_8);
	}

	/**
	 * Starts a worker.
	 * @param name the worker's name, without dashes
	 * @param directory the run's directory
	 * @param connectString the ZooKeeper connect string
	 * @param store the fenced store, which also records the worker's history
	 * @param threads the number of locking threads
	 * @param keys the keys the threads lock, picked at random
	 * @param waitTime the wait time of each lock
	 * @param properties properties of the worker's application, as {@code name=value},
	 * replacing its defaults
	 * @return the started worker
	 */
	static WorkerProcess start(String name, Path directory, String connectString, FencedStore store, int threads,
			List<String> keys, Duration waitTime, List<String> properties) {
		List<String> command = new ArrayList<>(List.of(JavaCommand.java(), "-cp", JavaCommand.classpath(), "-Xmx256m",
				"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData", FaultWorker.class.getName(), name,
				connectString, store.uri().toString(), Integer.toString(threads), String.join(",", keys),
				Long.toString(waitTime.toMillis())));
		properties.forEach((property) -> command.add("--" + property));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(directory.resolve(name + ".log").toFile())
				.start();
			return new WorkerProcess(name, store, process);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	String name() {
		return this.name;
	}

	/**
	 * What the worker recorded so far.
	 * @return its history
	 */
	History history() {
		return this.store.history(this.name);
	}

	/**
	 * Sends a command line to the worker.
	 * @param command the command, such as {@code stall 1500}
	 */
	void send(String command) {
		try {
			this.commands.write(command + "\n");
			this.commands.flush();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Worker " + this.name + " did not take '" + command + "'", ex);
		}
	}

	/**
	 * Kills the worker at once ({@code kill -9}).
	 */
	void kill() throws InterruptedException {
		this.process.destroyForcibly();
		this.process.waitFor(10, TimeUnit.SECONDS);
	}

	/**
	 * Freezes the worker ({@code kill -STOP}), as a long GC pause or a frozen VM would.
	 */
	void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	/**
	 * Lets a paused worker run again ({@code kill -CONT}).
	 */
	void resume() throws IOException, InterruptedException {
		signal("CONT");
	}

	private void signal(String signal) throws IOException, InterruptedException {
		Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(this.process.pid())).inheritIO().start();
		if (kill.waitFor() != 0) {
			throw new IllegalStateException("kill -" + signal + " of worker " + this.name + " failed");
		}
	}

	/**
	 * Tells the worker to stop and waits for it to exit.
	 * @param timeout how long to wait
	 * @return whether it exited cleanly in time
	 */
	boolean stop(Duration timeout) throws InterruptedException {
		if (!this.process.isAlive()) {
			return false;
		}
		send("stop");
		return this.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS) && this.process.exitValue() == 0;
	}

	/**
	 * Kills the worker if it still runs, paused or not.
	 */
	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			kill();
		}
	}

	@Override
	public String toString() {
		return "worker " + this.name + " (pid " + this.process.pid() + ")";
	}

}
