package dev.zklock.benchmarks;

import java.nio.file.Path;
import java.time.Duration;

/**
 * What a worker JVM runs on its driver, sent to it as one command line.
 */
sealed interface Workload permits FixedKeysLoad, DistinctKeysLoad {

	/**
	 * Runs the workload.
	 * @param driver the library under test
	 * @return what the worker measured
	 * @throws Exception if a lock could not be acquired or the run was interrupted
	 */
	WorkerResult run(LockDriver driver) throws Exception;

	/**
	 * The command line that {@link #parse(String)} reads back.
	 * @return the command
	 */
	String toCommand();

	/**
	 * Reads a workload from its command line.
	 * @param command the command
	 * @return the workload
	 */
	static Workload parse(String command) {
		// A path comes last and may hold spaces
		String[] words = command.split(" ", 8);
		return switch (words[0]) {
			case "fixed" -> new FixedKeysLoad(Integer.parseInt(words[1]), Integer.parseInt(words[2]),
					FixedKeysLoad.KeyChoice.of(words[3]), Duration.ofMillis(Long.parseLong(words[4])),
					Duration.ofMillis(Long.parseLong(words[5])), words[6].equals("virtual"), Path.of(words[7]));
			case "distinct" -> new DistinctKeysLoad(Integer.parseInt(words[1]), Integer.parseInt(words[2]),
					words[3].equals("virtual"), Path.of(command.split(" ", 5)[4]));
			default -> throw new IllegalArgumentException("Unknown workload '" + command + "'");
		};
	}

}
