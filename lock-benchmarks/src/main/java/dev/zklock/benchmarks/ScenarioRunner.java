package dev.zklock.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.function.Consumer;

import dev.zklock.benchmarks.NodeCensus.Reaping;
import dev.zklock.benchmarks.ResultRow.Exclusion;

/**
 * Runs the worker scenarios: every variant gets its worker JVMs at the start (two when
 * the two-JVM scenario runs, one otherwise), and each scenario then runs for one variant
 * after the other, so that all variants of a scenario meet the server in the same state.
 */
final class ScenarioRunner implements AutoCloseable {

	private static final Duration STARTUP = Duration.ofMinutes(2);

	private static final int SIXTEEN = 16;

	private final BenchmarkOptions options;

	private final NodeCensus census;

	private final Path directory;

	private final Map<Variant, List<WorkerProcess>> workers = new LinkedHashMap<>();

	private int runs;

	private ScenarioRunner(BenchmarkOptions options, NodeCensus census, Path directory) {
		this.options = options;
		this.census = census;
		this.directory = directory;
	}

	/**
	 * Starts the workers of every variant and waits until they are connected.
	 * @param options the run's options
	 * @param connectString the ZooKeeper connect string
	 * @param census the harness's view of the server's nodes
	 * @param directory where the workers' logs and the exclusion probes go
	 * @return the runner
	 * @throws Exception if a worker does not start
	 */
	static ScenarioRunner start(BenchmarkOptions options, String connectString, NodeCensus census, Path directory)
			throws Exception {
		ScenarioRunner runner = new ScenarioRunner(options, census, Files.createDirectories(directory));
		try {
			int perVariant = options.scenarios().contains(Scenario.TWO_JVMS) ? 2 : 1;
			for (Variant variant : options.variants()) {
				List<WorkerProcess> started = new ArrayList<>();
				for (int i = 1; i <= perVariant; i++) {
					started.add(WorkerProcess.start(variant.name() + "-" + i, variant, connectString,
							options.workerJvmOptions(), directory));
				}
				runner.workers.put(variant, started);
			}
			long start = System.nanoTime();
			for (List<WorkerProcess> started : runner.workers.values()) {
				for (WorkerProcess worker : started) {
					worker.awaitReady(STARTUP);
				}
			}
			System.out.printf(Locale.ROOT, "%d worker JVMs ready in %.1f s%n", perVariant * runner.workers.size(),
					(System.nanoTime() - start) / 1e9);
			return runner;
		}
		catch (Exception | Error ex) {
			runner.close();
			throw ex;
		}
	}

	/**
	 * Runs the selected worker scenarios.
	 * @param progress receives each row as soon as it is measured
	 * @throws Exception if a run fails
	 */
	void run(Consumer<ResultRow> progress) throws Exception {
		if (this.options.scenarios().contains(Scenario.HOT_KEY)) {
			for (int threads : this.options.hotKeyThreads()) {
				String setting = threads + ((threads == 1) ? " thread" : " threads");
				for (Variant variant : this.workers.keySet()) {
					progress.accept(runFixedKeys(Scenario.HOT_KEY, setting, variant, 1, threads, 1));
				}
			}
		}
		if (this.options.scenarios().contains(Scenario.TWO_JVMS)) {
			int threads = this.options.jvmThreads();
			for (Variant variant : this.workers.keySet()) {
				progress.accept(
						runFixedKeys(Scenario.TWO_JVMS, "2 JVMs × " + threads + " threads", variant, 2, threads, 1));
			}
		}
		if (this.options.scenarios().contains(Scenario.SIXTEEN_KEYS)) {
			for (Variant variant : this.workers.keySet()) {
				progress
					.accept(runFixedKeys(Scenario.SIXTEEN_KEYS, "16 keys × 16 threads", variant, 1, SIXTEEN, SIXTEEN));
			}
		}
		if (this.options.scenarios().contains(Scenario.MANY_KEYS)) {
			for (Variant variant : this.workers.keySet()) {
				progress.accept(runManyKeys(variant));
			}
		}
	}

	private ResultRow runFixedKeys(Scenario scenario, String setting, Variant variant, int jvms, int threads, int keys)
			throws Exception {
		Path probeFile = this.directory.resolve("probe-" + (++this.runs));
		FixedKeysLoad load = new FixedKeysLoad(threads, keys, this.options.warmup(), this.options.seconds(), probeFile);
		List<WorkerProcess> running = this.workers.get(variant).subList(0, jvms);
		running.forEach((worker) -> worker.send(load));
		Duration timeout = this.options.warmup().plus(this.options.seconds()).plus(LockDriver.WAIT_TIME).plusMinutes(1);
		List<WorkerResult> results = new ArrayList<>();
		for (WorkerProcess worker : running) {
			results.add(worker.awaitResult(timeout));
		}
		ExclusionProbe probe = ExclusionProbe.map(probeFile, keys);
		long acquisitions = results.stream().mapToLong(WorkerResult::total).sum();
		Exclusion exclusion = (probe.overlaps() == 0 && probe.counted() == acquisitions) ? Exclusion.HELD
				: Exclusion.VIOLATED;
		Files.delete(probeFile);
		double throughput = results.stream().mapToDouble(WorkerResult::throughput).sum();
		List<Metric> metrics = new ArrayList<>();
		long measured = results.stream().mapToLong(WorkerResult::measured).sum();
		for (int i = 0; i < results.size(); i++) {
			String jvm = (jvms == 1) ? "" : "JVM " + (i + 1) + " ";
			if (jvms > 1) {
				metrics.add(new Metric(jvm + "share", 100.0 * results.get(i).measured() / measured, "%"));
			}
			metrics.add(new Metric(jvm + "max wait", results.get(i).maxWaitNanos() / 1e6, "ms"));
		}
		if (exclusion == Exclusion.VIOLATED) {
			metrics.add(new Metric("overlaps", probe.overlaps(), ""));
			metrics.add(new Metric("counter shortfall", acquisitions - probe.counted(), ""));
		}
		return new ResultRow(scenario, setting, jvms * threads, variant.name(), throughput, exclusion, metrics);
	}

	private ResultRow runManyKeys(Variant variant) throws Exception {
		int keys = this.options.manyKeys();
		int threads = this.options.manyKeysThreads();
		WorkerProcess worker = this.workers.get(variant).get(0);
		worker.send(new DistinctKeysLoad(threads, keys));
		WorkerResult result = worker.awaitResult(Duration.ofMillis(20L * keys / threads).plusMinutes(5));
		Reaping reaping = this.census.awaitReaping(variant.rootPath(), this.options.reapWait());
		List<Metric> metrics = List.of(new Metric("heap growth", result.heapGrowthBytes() / 1048576.0, "MB"),
				new Metric("nodes after run", reaping.before(), ""),
				new Metric("nodes after reaping", reaping.after(), ""),
				new Metric("reaping took", reaping.waited().toMillis() / 1000.0, "s"));
		return new ResultRow(Scenario.MANY_KEYS, keys + " keys × " + threads + " threads", threads, variant.name(),
				result.throughput(), Exclusion.NOT_CHECKED, metrics);
	}

	/**
	 * Stops every worker, all at once.
	 */
	@Override
	public void close() throws InterruptedException {
		List<WorkerProcess> all = this.workers.values().stream().flatMap(List::stream).toList();
		all.forEach(WorkerProcess::quit);
		for (WorkerProcess worker : all) {
			worker.close();
		}
	}

}
