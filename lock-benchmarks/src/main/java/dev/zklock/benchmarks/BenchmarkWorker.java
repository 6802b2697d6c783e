package dev.zklock.benchmarks;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;

/**
 * The main class of a worker JVM: opens one variant's driver, says it is ready, then runs
 * the workloads that the harness sends on standard input one after the other and answers
 * each with a result line. Lines for the harness start with {@link #PREFIX}; everything
 * else on standard output is the libraries' logging.
 */
public final class BenchmarkWorker {

	/**
	 * The start of every line the worker addresses to the harness.
	 */
	static final String PREFIX = "@bench ";

	static final String READY = "ready";

	static final String RESULT = "result ";

	static final String FAILED = "failed ";

	static final String QUIT = "quit";

	private BenchmarkWorker() {
	}

	/**
	 * Runs a worker.
	 * @param args the variant's text form and the run's {@link RunEndpoints} in their
	 * text form
	 * @throws Exception if the driver cannot be opened or closed
	 */
	public static void main(String[] args) throws Exception {
		Variant variant = Variant.parse(args[0]);
		PrintStream out = System.out;
		BufferedReader commands = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		try (LockDriver driver = variant.open(RunEndpoints.parse(args[1]))) {
			out.println(PREFIX + READY);
			String command;
			while ((command = commands.readLine()) != null && !command.equals(QUIT)) {
				out.println(PREFIX + answer(driver, command));
			}
		}
		System.exit(0);
	}

	private static String answer(LockDriver driver, String command) {
		try {
			return RESULT + Workload.parse(command).run(driver).toLine();
		}
		catch (Exception ex) {
			ex.printStackTrace(System.out);
			return FAILED + ex.toString().replace('\n', ' ');
		}
	}

}
