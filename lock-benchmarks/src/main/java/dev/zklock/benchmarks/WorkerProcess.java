package dev.zklock.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.PrintWriter;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

/**
 * A {@link BenchmarkWorker} JVM seen from the harness: workloads go to its standard
 * input, its answers come back on its standard output, and everything else it prints goes
 * to its log file.
 */
final class WorkerProcess implements AutoCloseable {

	private static final String EXITED = "exited";

	private final String name;

	private final Path log;

	private final Process process;

	private final PrintWriter commands;

	private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();

	private WorkerProcess(String name, Path log, Process process) {
		this.name = name;
		this.log = log;
		this.process = process;
		this.commands = new PrintWriter(process.outputWriter(StandardCharsets.UTF_8), true);
		Thread reader = new Thread(this::readOutput, name + "-output");
		reader.setDaemon(true);
		reader.start();
	}

	/**
	 * Starts a worker; it is ready once {@link #awaitReady(Duration)} returns.
	 * @param name the worker's name, which also names its log file
	 * @param variant the variant it runs
	 * @param connectString the ZooKeeper connect string
	 * @param jvmOptions the options of its JVM
	 * @param directory where its log file goes
	 * @return the started worker
	 */
	static WorkerProcess start(String name, Variant variant, String connectString, List<String> jvmOptions,
			Path directory) {
		List<String> command = JavaCommand.of(jvmOptions, BenchmarkWorker.class.getName(),
				List.of(variant.toText(), connectString));
		try {
			Process process = new ProcessBuilder(command).redirectErrorStream(true).start();
			return new WorkerProcess(name, directory.resolve(name + ".log"), process);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start worker " + name, ex);
		}
	}

	private void readOutput() {
		try (BufferedReader output = new BufferedReader(
				new InputStreamReader(this.process.getInputStream(), StandardCharsets.UTF_8));
				Writer logWriter = Files.newBufferedWriter(this.log)) {
			String line;
			while ((line = output.readLine()) != null) {
				if (line.startsWith(BenchmarkWorker.PREFIX)) {
					this.answers.add(line.substring(BenchmarkWorker.PREFIX.length()));
				}
				else {
					logWriter.write(line + System.lineSeparator());
					logWriter.flush();
				}
			}
		}
		catch (IOException ex) {
			// The worker is gone: the harness learns it from the answer below
		}
		this.answers.add(EXITED);
	}

	/**
	 * Waits until the worker has connected its driver.
	 * @param timeout how long to wait
	 * @throws InterruptedException if interrupted while waiting
	 */
	void awaitReady(Duration timeout) throws InterruptedException {
		String answer = awaitAnswer(timeout);
		if (!answer.equals(BenchmarkWorker.READY)) {
			throw failure("did not start: " + answer);
		}
	}

	/**
	 * Sends a workload to the worker; its result comes with
	 * {@link #awaitResult(Duration)}.
	 * @param workload the workload
	 */
	void send(Workload workload) {
		this.commands.println(workload.toCommand());
	}

	/**
	 * Waits for the result of the workload sent last.
	 * @param timeout how long to wait
	 * @return the result
	 * @throws InterruptedException if interrupted while waiting
	 */
	WorkerResult awaitResult(Duration timeout) throws InterruptedException {
		String answer = awaitAnswer(timeout);
		if (!answer.startsWith(BenchmarkWorker.RESULT)) {
			throw failure(answer);
		}
		return WorkerResult.parse(answer.substring(BenchmarkWorker.RESULT.length()));
	}

	private String awaitAnswer(Duration timeout) throws InterruptedException {
		String answer = this.answers.poll(timeout.toMillis(), TimeUnit.MILLISECONDS);
		if (answer == null) {
			throw failure("did not answer within " + timeout);
		}
		return answer;
	}

	private IllegalStateException failure(String what) {
		return new IllegalStateException("Worker " + this.name + " " + what + " (see " + this.log + ")");
	}

	/**
	 * Asks the worker to quit, without waiting for it: {@link #close()} does.
	 */
	void quit() {
		this.commands.println(BenchmarkWorker.QUIT);
	}

	/**
	 * Asks the worker to quit, and kills it if it does not within ten seconds.
	 */
	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			quit();
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				this.process.destroyForcibly();
				this.process.waitFor(10, TimeUnit.SECONDS);
			}
		}
	}

}
