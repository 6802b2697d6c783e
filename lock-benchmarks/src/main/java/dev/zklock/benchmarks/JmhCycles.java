package dev.zklock.benchmarks;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import dev.zklock.benchmarks.ResultRow.Exclusion;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.BenchmarkResult;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;
import org.openjdk.jmh.util.ListStatistics;

/**
 * Runs {@link UncontendedCycleBenchmark} for every variant through JMH's API: the
 * configured numbers of warm-up and measured iterations, one second each unless
 * configured otherwise, in forks with the workers' JVM options. Each variant needs a fork
 * of its own to be compared: in a shared JVM, the variant measured first pays for loading
 * and compiling the code that the others then share (the ZooKeeper client, Curator, and
 * for the annotation the template's whole path). JMH's own report goes to
 * {@code jmh-round-N.log} and {@code jmh-round-N.json} in the output directory, the
 * forks' counts of writes to {@code jmh-writes.txt}.
 */
final class JmhCycles {

	private final BenchmarkOptions options;

	private final RunEndpoints endpoints;

	JmhCycles(BenchmarkOptions options, RunEndpoints endpoints) {
		this.options = options;
		this.endpoints = endpoints;
	}

	/**
	 * Runs the benchmark in as many rounds as the fixed-keys settings, taking the
	 * variants forwards in even rounds and backwards in odd ones, and pools every
	 * variant's measured iterations.
	 * @return a row per variant
	 * @throws RunnerException if JMH or a variant fails
	 * @throws IOException if the forks' counts of writes cannot be read
	 */
	List<ResultRow> run() throws RunnerException, IOException {
		Files.deleteIfExists(writesFile());
		List<String> forwards = this.options.variantsIn(Scenario.UNCONTENDED).stream().map(Variant::toText).toList();
		List<String> backwards = new ArrayList<>(forwards);
		Collections.reverse(backwards);
		Map<String, ListStatistics> iterations = new LinkedHashMap<>();
		forwards.forEach((variant) -> iterations.put(variant, new ListStatistics()));
		for (int round = 0; round < this.options.rounds(); round++) {
			for (RunResult result : new Runner(options(round, (round % 2 == 0) ? forwards : backwards)).run()) {
				ListStatistics pooled = iterations.get(result.getParams().getParam("variant"));
				for (BenchmarkResult fork : result.getBenchmarkResults()) {
					fork.getIterationResults()
						.forEach((iteration) -> pooled.addValue(iteration.getPrimaryResult().getScore()));
				}
			}
		}
		Map<String, Double> writes = CycleWrites.perCycle(writesFile());
		List<ResultRow> rows = new ArrayList<>();
		iterations.forEach((variant, statistics) -> {
			double micros = statistics.getMean();
			String name = Variant.parse(variant).name();
			rows.add(new ResultRow(Scenario.UNCONTENDED, "1 thread", 1, name, 1e6 / micros,
					writes.getOrDefault(name, Double.NaN), Exclusion.NOT_CHECKED,
					latency(micros, statistics.getMeanErrorAt(0.999))));
		});
		return rows;
	}

	private Path writesFile() {
		return this.options.output().toAbsolutePath().resolve("jmh-writes.txt");
	}

	private Options options(int round, List<String> variants) {
		Path output = this.options.output();
		return new OptionsBuilder().include(Pattern.quote(UncontendedCycleBenchmark.class.getName()) + ".cycle")
			.param("variant", variants.toArray(String[]::new))
			.param("endpoints", this.endpoints.toText())
			.param("writesFile", writesFile().toString())
			.mode(Mode.AverageTime)
			.timeUnit(TimeUnit.MICROSECONDS)
			.warmupIterations(this.options.jmhWarmups())
			.warmupTime(iterationTime())
			.measurementIterations(this.options.jmhIterations())
			.measurementTime(iterationTime())
			.forks(this.options.jmhForks())
			.jvmArgs(this.options.workerJvmOptions().toArray(String[]::new))
			.shouldFailOnError(true)
			.output(output.resolve("jmh-round-" + (round + 1) + ".log").toString())
			.result(output.resolve("jmh-round-" + (round + 1) + ".json").toString())
			.resultFormat(ResultFormatType.JSON)
			.build();
	}

	private TimeValue iterationTime() {
		return TimeValue.milliseconds(this.options.jmhTime().toMillis());
	}

	private static List<Metric> latency(double micros, double error) {
		Metric latency = new Metric("latency", micros, "µs/cycle");
		return Double.isFinite(error) ? List.of(latency, new Metric("± (99.9% confidence)", error, "µs"))
				: List.of(latency);
	}

}
