package dev.zklock.benchmarks;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collection;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;

import dev.zklock.benchmarks.ResultRow.Exclusion;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.results.format.ResultFormatType;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;
import org.openjdk.jmh.runner.options.TimeValue;

/**
 * Runs {@link UncontendedCycleBenchmark} for every variant through JMH's API: two
 * one-second warm-up iterations and the configured number of measured ones, in forks with
 * the workers' JVM options. JMH's own report goes to {@code jmh.log} and
 * {@code jmh-result.json} in the output directory.
 */
final class JmhCycles {

	private final BenchmarkOptions options;

	private final String connectString;

	JmhCycles(BenchmarkOptions options, String connectString) {
		this.options = options;
		this.connectString = connectString;
	}

	/**
	 * Runs the benchmark.
	 * @return a row per variant
	 * @throws RunnerException if JMH or a variant fails
	 */
	List<ResultRow> run() throws RunnerException {
		Path output = this.options.output();
		Options jmh = new OptionsBuilder().include(Pattern.quote(UncontendedCycleBenchmark.class.getName()) + ".cycle")
			.param("variant", this.options.variants().stream().map(Variant::toText).toArray(String[]::new))
			.param("connectString", this.connectString)
			.mode(Mode.AverageTime)
			.timeUnit(TimeUnit.MICROSECONDS)
			.warmupIterations(2)
			.warmupTime(TimeValue.seconds(1))
			.measurementIterations(this.options.jmhIterations())
			.measurementTime(TimeValue.seconds(1))
			.forks(this.options.jmhForks())
			.jvmArgs(this.options.workerJvmOptions().toArray(String[]::new))
			.shouldFailOnError(true)
			.output(output.resolve("jmh.log").toString())
			.result(output.resolve("jmh-result.json").toString())
			.resultFormat(ResultFormatType.JSON)
			.build();
		Collection<RunResult> results = new Runner(jmh).run();
		List<ResultRow> rows = new ArrayList<>();
		for (RunResult result : results) {
			Variant variant = Variant.parse(result.getParams().getParam("variant"));
			Result<?> cycle = result.getPrimaryResult();
			double micros = cycle.getScore();
			rows.add(new ResultRow(Scenario.UNCONTENDED, "1 thread", 1, variant.name(), 1e6 / micros,
					Exclusion.NOT_CHECKED, latency(micros, cycle.getScoreError())));
		}
		return rows;
	}

	private static List<Metric> latency(double micros, double error) {
		Metric latency = new Metric("latency", micros, "µs/cycle");
		return Double.isFinite(error) ? List.of(latency, new Metric("± (99.9% confidence)", error, "µs"))
				: List.of(latency);
	}

}
