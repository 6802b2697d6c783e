package dev.zklock.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.io.Writer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.zklock.testsupport.process.JavaCommand;
import dev.zklock.testsupport.process.JvmProcess;
import dev.zklock.testsupport.process.OutputLines;

/**
 * A {@link BenchmarkWorker} JVM seen from the harness: workloads go to its standard
 * input, its answers come back on its standard output, and everything else it prints goes
 * to its log file.
 */
final class WorkerProcess implements AutoCloseable {

	private static final String EXITED = "exited";

	private static final Duration QUIT_WAIT = Duration.ofSeconds(10);

	private final String name;

	private final Path log;

	private final BlockingQueue<String> answers;

	private final JvmProcess process;

	private WorkerProcess(String name, Path log, BlockingQueue<String> answers, JvmProcess process) {
		this.name = name;
		this.log = log;
		this.answers = answers;
		this.process = process;
	}

	/**
	 * Starts a worker; it is ready once {@link #awaitReady(Duration)} returns.
	 * @param name the worker's name, which also names its log file
	 * @param variant the variant it runs
	 * @param endpoints the servers of the run
	 * @param jvmOptions the options of its JVM
	 * @param directory where its log file goes
	 * @return the started worker
	 * @throws IOException if its log file cannot be written
	 */
	static WorkerProcess start(String name, Variant variant, RunEndpoints endpoints, List<String> jvmOptions,
			Path directory) throws IOException {
		Path log = directory.resolve(name + ".log");
		Output output = new Output(Files.newBufferedWriter(log));
		JvmProcess process = JvmProcess.start("worker " + name,
				JavaCommand.mainClass(BenchmarkWorker.class.getName())
					.jvmOptions(jvmOptions)
					.arguments(variant.toText(), endpoints.toText()),
				output);
		return new WorkerProcess(name, log, output.answers, process);
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
		this.process.send(workload.toCommand());
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
		try {
			this.process.send(BenchmarkWorker.QUIT);
		}
		catch (UncheckedIOException ex) {
			// The worker has exited already
		}
	}

	/**
	 * Asks the worker to quit, and kills it if it does not within ten seconds.
	 */
	@Override
	public void close() throws InterruptedException {
		if (this.process.isAlive()) {
			quit();
			if (!this.process.awaitExit(QUIT_WAIT)) {
				this.process.kill();
			}
		}
	}

	/**
	 * What the worker prints: its answers, the lines with {@link BenchmarkWorker#PREFIX},
	 * queued for the harness, and the rest written to its log; once its output ends, an
	 * answer that says it exited.
	 */
	private static final class Output implements OutputLines {

		private final BlockingQueue<String> answers = new LinkedBlockingQueue<>();

		private final Writer log;

		Output(Writer log) {
			this.log = log;
		}

		@Override
		public void line(String line) throws IOException {
			if (line.startsWith(BenchmarkWorker.PREFIX)) {
				this.answers.add(line.substring(BenchmarkWorker.PREFIX.length()));
			}
			else {
				this.log.write(line + System.lineSeparator());
				this.log.flush();
			}
		}

		@Override
		public void ended() {
			this.answers.add(EXITED);
			try {
				this.log.close();
			}
			catch (IOException ex) {
				// What the worker printed last may be lost; its answers are not
			}
		}

	}

}
