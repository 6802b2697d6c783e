package dev.zklock.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.HashMap;
import java.util.List;
import java.util.Map;

/**
 * The file through which JMH's forks of {@link UncontendedCycleBenchmark} tell the
 * harness how many ZooKeeper writes their cycles sent: a line {@code variant cycles
 * writes} per fork, warm-up iterations included.
 */
final class CycleWrites {

	private CycleWrites() {
	}

	/**
	 * Adds a fork's line.
	 * @param file the file
	 * @param variant the variant's name
	 * @param cycles the cycles the fork ran
	 * @param writes the writes they sent
	 * @throws IOException if the file cannot be written
	 */
	static void append(Path file, String variant, long cycles, long writes) throws IOException {
		Files.writeString(file, variant + " " + cycles + " " + writes + System.lineSeparator(),
				StandardOpenOption.CREATE, StandardOpenOption.APPEND);
	}

	/**
	 * Every variant's writes per cycle, all its forks together.
	 * @param file the file
	 * @return writes per cycle by variant name; a variant without a line has none
	 * @throws IOException if the file cannot be read
	 */
	static Map<String, Double> perCycle(Path file) throws IOException {
		Map<String, long[]> sums = new HashMap<>();
		List<String> lines = Files.exists(file) ? Files.readAllLines(file) : List.of();
		for (String line : lines) {
			String[] words = line.trim().split(" ");
			long[] sum = sums.computeIfAbsent(words[0], (variant) -> new long[2]);
			sum[0] += Long.parseLong(words[1]);
			sum[1] += Long.parseLong(words[2]);
		}
		Map<String, Double> perCycle = new HashMap<>();
		sums.forEach((variant, sum) -> perCycle.put(variant, (double) sum[1] / sum[0]));
		return perCycle;
	}

}
