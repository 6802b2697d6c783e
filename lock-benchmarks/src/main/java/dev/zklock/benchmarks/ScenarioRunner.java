package dev.zklock.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Consumer;

import dev.zklock.benchmarks.NodeCensus.Reaping;
import dev.zklock.benchmarks.ResultRow.Exclusion;

/**
 * Runs the worker scenarios: every variant gets its worker JVMs at the start (two when it
 * runs in the two-JVM scenario, one when it runs in another worker scenario, none
 * otherwise), and each scenario then runs for one variant after the other, so that all
 * variants of a scenario meet the server in the same state.
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
			for (Variant variant : options.variants()) {
				List<WorkerProcess> started = new ArrayList<>();
				for (int i = 1; i <= jvmsOf(variant, options.scenarios()); i++) {
					started.add(WorkerProcess.start(variant.name() + "-" + i, variant, connectString,
							options.workerJvmOptions(), directory));
				}
				if (!started.isEmpty()) {
					runner.workers.put(variant, started);
				}
			}
			long start = System.nanoTime();
			List<WorkerProcess> all = runner.workers.values().stream().flatMap(List::stream).toList();
			for (WorkerProcess worker : all) {
				worker.awaitReady(STARTUP);
			}
			System.out.printf(Locale.ROOT, "%d worker JVMs ready in %.1f s%n", all.size(),
					(System.nanoTime() - start) / 1e9);
			return runner;
		}
		catch (Exception | Error ex) {
			runner.close();
			throw ex;
		}
	}

	private static int jvmsOf(Variant variant, Set<Scenario> scenarios) {
		if (scenarios.contains(Scenario.TWO_JVMS) && variant.runsIn(Scenario.TWO_JVMS)) {
			return 2;
		}
		return scenarios.stream().anyMatch((scenario) -> scenario != Scenario.UNCONTENDED && variant.runsIn(scenario))
				? 1 : 0;
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
				runFixedKeys(Scenario.HOT_KEY, setting, 1, threads, 1, progress);
			}
		}
		if (this.options.scenarios().contains(Scenario.TWO_JVMS)) {
			int threads = this.options.jvmThreads();
			runFixedKeys(Scenario.TWO_JVMS, "2 JVMs × " + threads + " threads", 2, threads, 1, progress);
		}
		if (this.options.scenarios().contains(Scenario.SIXTEEN_KEYS)) {
			runFixedKeys(Scenario.SIXTEEN_KEYS, "16 keys × 16 threads", 1, SIXTEEN, SIXTEEN, progress);
		}
		if (this.options.scenarios().contains(Scenario.MANY_KEYS)) {
			for (Variant variant : variantsIn(Scenario.MANY_KEYS)) {
				progress.accept(runManyKeys(variant));
			}
		}
	}

	/**
	 * Runs a fixed-keys setting for every variant, in rounds that take the variants in
	 * turn, forwards in even rounds and backwards in odd ones, so that a load on the
	 * machine that rises or falls during the setting weighs on every variant alike.
	 */
	private void runFixedKeys(Scenario scenario, String setting, int jvms, int threads, int keys,
			Consumer<ResultRow> progress) throws Exception {
		List<Variant> forwards = variantsIn(scenario);
		List<Variant> backwards = new ArrayList<>(forwards);
		Collections.reverse(backwards);
		int rounds = this.options.rounds();
		Duration duration = this.options.seconds().dividedBy(rounds);
		Map<Variant, FixedKeysMeasurement> measurements = new LinkedHashMap<>();
		for (int round = 0; round < rounds; round++) {
			for (Variant variant : (round % 2 == 0) ? forwards : backwards) {
				FixedKeysMeasurement measured = runRound(variant, jvms, threads, keys, duration);
				measurements.merge(variant, measured, FixedKeysMeasurement::plus);
			}
		}
		measurements.forEach((variant, measured) -> progress
			.accept(measured.toRow(scenario, setting, jvms * threads, variant.name())));
	}

	/**
	 * Runs one round of a variant. The JVMs share one exclusion probe, unless the
	 * variant's locks exclude only the threads of one JVM: then each JVM gets a probe of
	 * its own.
	 */
	private FixedKeysMeasurement runRound(Variant variant, int jvms, int threads, int keys, Duration duration)
			throws Exception {
		String probe = "probe-" + (++this.runs);
		List<WorkerProcess> running = this.workers.get(variant).subList(0, jvms);
		List<FixedKeysLoad> loads = new ArrayList<>();
		for (int i = 1; i <= jvms; i++) {
			Path probeFile = this.directory
				.resolve(variant.library().excludesAcrossJvms() ? probe : probe + "-jvm-" + i);
			loads.add(new FixedKeysLoad(threads, keys, this.options.warmup(), duration, probeFile));
		}
		for (int i = 0; i < jvms; i++) {
			running.get(i).send(loads.get(i));
		}
		Duration timeout = this.options.warmup().plus(duration).plus(LockDriver.WAIT_TIME).plusMinutes(1);
		List<WorkerResult> results = new ArrayList<>();
		for (WorkerProcess worker : running) {
			results.add(worker.awaitResult(timeout));
		}
		long overlaps = 0;
		long counted = 0;
		for (Path probeFile : loads.stream().map(FixedKeysLoad::probeFile).distinct().toList()) {
			ExclusionProbe found = ExclusionProbe.map(probeFile, keys);
			overlaps += found.overlaps();
			counted += found.counted();
			Files.delete(probeFile);
		}
		long acquisitions = results.stream().mapToLong(WorkerResult::total).sum();
		return new FixedKeysMeasurement(results, overlaps, acquisitions - counted);
	}

	private List<Variant> variantsIn(Scenario scenario) {
		return this.options.variantsIn(scenario).stream().filter(this.workers::containsKey).toList();
	}

	private ResultRow runManyKeys(Variant variant) throws Exception {
		int keys = this.options.manyKeys();
		int threads = this.options.manyKeysThreads();
		WorkerProcess worker = this.workers.get(variant).get(0);
		DistinctKeysLoad load = new DistinctKeysLoad(threads, keys);
		worker.send(load);
		WorkerResult result = worker.awaitResult(load.timeLimit().plusMinutes(1));
		Reaping reaping = this.census.awaitReaping(variant.rootPath(), this.options.reapWait());
		List<Metric> metrics = List.of(new Metric("heap growth", result.heapGrowthBytes() / 1048576.0, "MB"),
				new Metric("nodes after run", reaping.before(), ""),
				new Metric("nodes after reaping", reaping.after(), ""),
				new Metric("reaping took", reaping.waited().toMillis() / 1000.0, "s"));
		return new ResultRow(Scenario.MANY_KEYS, keys + " keys × " + threads + " threads", threads, variant.name(),
				result.throughput(), (double) result.writes() / result.total(), Exclusion.NOT_CHECKED, metrics);
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
