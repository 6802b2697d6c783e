package dev.zklock.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;

import dev.zklock.testsupport.process.JavaCommand;
import dev.zklock.testsupport.process.JvmProcess;

/**
 * A {@link FaultWorker} in its own JVM, seen from the test: commands go to its standard
 * input, its output goes to {@code NAME.log} in the run's directory, and its history to
 * the {@link FencedStore}. It can be killed, paused and resumed like any process.
 */
final class WorkerProcess implements AutoCloseable {

	private final String name;

	private final WorkerKind kind;

	private final FencedStore store;

	private final JvmProcess process;

	private WorkerProcess(String name, WorkerKind kind, FencedStore store, JvmProcess process) {
		this.name = name;
		this.kind = kind;
		this.store = store;
		this.process = process;
	}

	/**
	 * Starts a worker.
	 * @param name the worker's name, without dashes
	 * @param directory the run's directory
	 * @param connectString the ZooKeeper connect string
	 * @param store the fenced store, which also records the worker's history
	 * @param threads the number of locking threads
	 * @param kind the locks the threads take
	 * @param waitTime the wait time of each lock
	 * @param properties properties of the worker's application, as {@code name=value},
	 * replacing its defaults
	 * @return the started worker
	 */
	static WorkerProcess start(String name, Path directory, String connectString, FencedStore store, int threads,
			WorkerKind kind, Duration waitTime, List<String> properties) {
		JavaCommand command = JavaCommand.mainClass(FaultWorker.class.getName())
			.jvmOptions("-Xmx256m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData")
			.arguments(name, connectString, store.uri().toString(), Integer.toString(threads), kind.name(),
					Long.toString(waitTime.toMillis()));
		properties.forEach((property) -> command.arguments("--" + property));
		return new WorkerProcess(name, kind, store,
				JvmProcess.start("worker " + name + " (" + NemesisFigures.label(kind) + ")", command,
						ProcessBuilder.Redirect.to(directory.resolve(name + ".log").toFile())));
	}

	String name() {
		return this.name;
	}

	/**
	 * The locks the worker's threads take.
	 * @return its kind
	 */
	WorkerKind kind() {
		return this.kind;
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
		this.process.send(command);
	}

	/**
	 * Kills the worker at once ({@code kill -9}).
	 */
	void kill() {
		this.process.kill();
	}

	/**
	 * Freezes the worker ({@code kill -STOP}), as a long GC pause or a frozen VM would.
	 */
	void pause() throws IOException, InterruptedException {
		this.process.pause();
	}

	/**
	 * Lets a paused worker run again ({@code kill -CONT}).
	 */
	void resume() throws IOException, InterruptedException {
		this.process.resume();
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
		return this.process.awaitExit(timeout) && this.process.exitValue() == 0;
	}

	/**
	 * Kills the worker if it still runs, paused or not.
	 */
	@Override
	public void close() {
		this.process.close();
	}

	@Override
	public String toString() {
		return this.process.toString();
	}

}
