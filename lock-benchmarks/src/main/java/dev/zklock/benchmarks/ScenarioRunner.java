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
import java.util.stream.Collectors;

import dev.zklock.benchmarks.FixedKeysLoad.KeyChoice;
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
	 * @param endpoints the servers of the run
	 * @param census the harness's view of the server's nodes
	 * @param directory where the workers' logs and the exclusion probes go
	 * @return the runner
	 * @throws Exception if a worker does not start
	 */
	static ScenarioRunner start(BenchmarkOptions options, RunEndpoints endpoints, NodeCensus census, Path directory)
			throws Exception {
		ScenarioRunner runner = new ScenarioRunner(options, census, Files.createDirectories(directory));
		try {
			for (Variant variant : options.variants()) {
				List<WorkerProcess> started = new ArrayList<>();
				for (int i = 1; i <= jvmsOf(variant, options.scenarios()); i++) {
					started.add(WorkerProcess.start(variant.name() + "-" + i, variant, endpoints,
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
		return scenarios.stream().anyMatch((scenario) -> scenario.runsInWorkers() && variant.runsIn(scenario)) ? 1 : 0;
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
				runFixedKeys(Scenario.HOT_KEY, setting, variantsIn(Scenario.HOT_KEY), 1,
						load(threads, 1, KeyChoice.BY_THREAD, false), progress);
			}
		}
		if (this.options.scenarios().contains(Scenario.TWO_JVMS)) {
			int threads = this.options.jvmThreads();
			runFixedKeys(Scenario.TWO_JVMS, "2 JVMs × " + threads + " threads", variantsIn(Scenario.TWO_JVMS), 2,
					load(threads, 1, KeyChoice.BY_THREAD, false), progress);
		}
		if (this.options.scenarios().contains(Scenario.SIXTEEN_KEYS)) {
			runFixedKeys(Scenario.SIXTEEN_KEYS, "16 keys × 16 threads", variantsIn(Scenario.SIXTEEN_KEYS), 1,
					load(SIXTEEN, SIXTEEN, KeyChoice.BY_THREAD, false), progress);
		}
		if (this.options.scenarios().contains(Scenario.RANDOM_KEYS)) {
			int threads = this.options.randomKeysThreads();
			int keys = this.options.randomKeys();
			runFixedKeys(Scenario.RANDOM_KEYS, String.format(Locale.ROOT, "%,d keys × %,d threads", keys, threads),
					variantsIn(Scenario.RANDOM_KEYS), 1, load(threads, keys, KeyChoice.AT_RANDOM, false), progress);
		}
		if (this.options.scenarios().contains(Scenario.MANY_KEYS)) {
			runDistinctKeys(Scenario.MANY_KEYS, this.options.manyKeysThreads(), this.options.manyKeys(), false,
					progress);
		}
		if (this.options.scenarios().contains(Scenario.VIRTUAL_THREADS)) {
			runVirtualThreads(progress);
		}
	}

	/**
	 * Runs the virtual threads on one key, then on a key each. On one key, a library that
	 * queues every waiting thread as a ZooKeeper node of its own is left out.
	 */
	private void runVirtualThreads(Consumer<ResultRow> progress) throws Exception {
		int threads = this.options.virtualThreads();
		Map<Boolean, List<Variant>> queueing = variantsIn(Scenario.VIRTUAL_THREADS).stream()
			.collect(Collectors.partitioningBy((variant) -> variant.library().queuesWaitersInTheJvm()));
		if (!queueing.get(false).isEmpty()) {
			System.out.printf(Locale.ROOT,
					"  Left out of %,d virtual threads on one key: %s. They queue every waiting thread as a "
							+ "ZooKeeper node of its own, and thousands of waiters do not get through within the "
							+ "benchmarks' wait time of %d s.%n",
					threads, queueing.get(false).stream().map(Variant::name).collect(Collectors.joining(", ")),
					LockDriver.WAIT_TIME.toSeconds());
		}
		runFixedKeys(Scenario.VIRTUAL_THREADS, String.format(Locale.ROOT, "1 key × %,d virtual threads", threads),
				queueing.get(true), 1, load(threads, 1, KeyChoice.BY_THREAD, true), progress);
		runDistinctKeys(Scenario.VIRTUAL_THREADS, threads, threads, true, progress);
	}

	private FixedKeysLoad load(int threads, int keys, KeyChoice keyChoice, boolean virtual) {
		return new FixedKeysLoad(threads, keys, keyChoice, this.options.warmup(),
				this.options.seconds().dividedBy(this.options.rounds()), virtual, this.directory.resolve("probe"));
	}

	/**
	 * Runs a fixed-keys setting for the variants, in rounds that take them in turn,
	 * forwards in even rounds and backwards in odd ones, so that a load on the machine
	 * that rises or falls during the setting weighs on every variant alike. Each round of
	 * each variant gets an exclusion probe of its own.
	 */
	private void runFixedKeys(Scenario scenario, String setting, List<Variant> variants, int jvms, FixedKeysLoad load,
			Consumer<ResultRow> progress) throws Exception {
		List<Variant> backwards = new ArrayList<>(variants);
		Collections.reverse(backwards);
		Map<Variant, FixedKeysMeasurement> measurements = new LinkedHashMap<>();
		for (int round = 0; round < this.options.rounds(); round++) {
			for (Variant variant : (round % 2 == 0) ? variants : backwards) {
				FixedKeysMeasurement measured = runRound(variant, jvms,
						load.withProbeFile(this.directory.resolve("probe-" + (++this.runs))));
				measurements.merge(variant, measured, FixedKeysMeasurement::plus);
			}
		}
		measurements.forEach((variant, measured) -> progress
			.accept(measured.toRow(scenario, setting, jvms * load.threads(), variant.name())));
	}

	/**
	 * Runs one round of a variant. The JVMs share the load's exclusion probe, unless the
	 * variant's locks exclude only the threads of one JVM: then each JVM gets a probe of
	 * its own.
	 */
	private FixedKeysMeasurement runRound(Variant variant, int jvms, FixedKeysLoad load) throws Exception {
		List<WorkerProcess> running = this.workers.get(variant).subList(0, jvms);
		List<FixedKeysLoad> loads = new ArrayList<>();
		for (int i = 1; i <= jvms; i++) {
			loads.add(variant.library().excludesAcrossJvms() ? load : load
				.withProbeFile(load.probeFile().resolveSibling(load.probeFile().getFileName() + "-jvm-" + i)));
		}
		for (int i = 0; i < jvms; i++) {
			running.get(i).send(loads.get(i));
		}
		Duration timeout = load.warmup().plus(load.duration()).plus(LockDriver.WAIT_TIME).plusMinutes(1);
		List<WorkerResult> results = new ArrayList<>();
		for (WorkerProcess worker : running) {
			results.add(worker.awaitResult(timeout));
		}
		long overlaps = 0;
		long counted = 0;
		for (Path probeFile : loads.stream().map(FixedKeysLoad::probeFile).distinct().toList()) {
			ExclusionProbe found = ExclusionProbe.map(probeFile, load.keys());
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

	/**
	 * Runs a distinct-keys setting for every variant, one after the other, each on
	 * ZooKeeper followed by the census of the nodes it left.
	 */
	private void runDistinctKeys(Scenario scenario, int threads, int keys, boolean virtual,
			Consumer<ResultRow> progress) throws Exception {
		String setting = String.format(Locale.ROOT, "%,d keys × %,d %sthreads", keys, threads,
				virtual ? "virtual " : "");
		for (Variant variant : variantsIn(scenario)) {
			WorkerProcess worker = this.workers.get(variant).get(0);
			DistinctKeysLoad load = new DistinctKeysLoad(threads, keys, virtual, this.directory);
			worker.send(load);
			WorkerResult result = worker.awaitResult(load.timeLimit().plusMinutes(1));
			List<Metric> metrics = new ArrayList<>(
					List.of(new Metric("heap growth", result.heapGrowthBytes() / 1048576.0, "MB")));
			if (!variant.library().isPeer()) {
				Reaping reaping = this.census.awaitReaping(variant.rootPath(), this.options.reapWait());
				metrics.addAll(List.of(new Metric("nodes after run", reaping.before(), ""),
						new Metric("nodes after reaping", reaping.after(), ""),
						new Metric("reaping took", reaping.waited().toMillis() / 1000.0, "s")));
			}
			if (result.allocatedBytes() != null) {
				metrics.add(new Metric(FixedKeysMeasurement.ALLOCATED,
						(double) result.allocatedBytes() / result.total(), "bytes/acquisition"));
			}
			if (result.pinnedEvents() != null) {
				metrics.add(new Metric(FixedKeysMeasurement.PINNED, result.pinnedEvents(), ""));
			}
			progress.accept(new ResultRow(scenario, setting, threads, variant.name(), result.throughput(),
					(double) result.writes() / result.total(), Exclusion.NOT_CHECKED, metrics));
		}
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
