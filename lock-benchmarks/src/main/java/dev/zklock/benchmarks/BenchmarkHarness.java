package dev.zklock.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import org.apache.curator.framework.CuratorFramework;

/**
 * Compares zklock with raw Curator and Spring Integration, and with the physical limits,
 * on one ZooKeeper server or an ensemble, and with the peers that lock on Redis or
 * PostgreSQL, in one run: starts the servers in processes of their own (the peers' only
 * when a selected variant needs them), runs the uncontended cycle through JMH, measures
 * the servers' write rate, runs the other scenarios in worker JVMs, then prints a
 * Markdown report and writes {@code results.json}, {@code results.md} and, when asked,
 * the hot-key chart. {@code --help} lists the options.
 */
public final class BenchmarkHarness {

	private BenchmarkHarness() {
	}

	/**
	 * Runs the benchmarks; exits with status 1 when a scenario saw mutual exclusion
	 * violated, and 64 for a malformed command line.
	 * @param args the command line
	 * @throws Exception if the run fails
	 */
	public static void main(String[] args) throws Exception {
		if (List.of(args).contains("--help")) {
			System.out.print(BenchmarkOptions.USAGE);
			return;
		}
		BenchmarkOptions options;
		try {
			options = BenchmarkOptions.parse(args);
		}
		catch (IllegalArgumentException ex) {
			System.err.println(ex.getMessage());
			System.err.print(BenchmarkOptions.USAGE);
			System.exit(64);
			return;
		}
		List<ResultRow> rows = run(options);
		System.exit(rows.stream().anyMatch((row) -> row.exclusion() == ResultRow.Exclusion.VIOLATED) ? 1 : 0);
	}

	/**
	 * Runs the benchmarks the options select and writes the results.
	 * @param options the options
	 * @return the measured rows
	 * @throws Exception if the run fails
	 */
	static List<ResultRow> run(BenchmarkOptions options) throws Exception {
		if (options.scenarios().contains(Scenario.VIRTUAL_THREADS) && VirtualThreads.unsupportedReason().isPresent()) {
			System.out.println("Skipping the virtual-thread scenario: " + VirtualThreads.unsupportedReason().get());
			return run(options.without(Scenario.VIRTUAL_THREADS));
		}
		if (options.scenarios().isEmpty()) {
			System.out.println("No scenario to run");
			return List.of();
		}
		System.setProperty("java.awt.headless", "true");
		long start = System.nanoTime();
		Path output = Files.createDirectories(options.output());
		List<ResultRow> rows = new ArrayList<>();
		try (BenchmarkServers servers = BenchmarkServers.startServing(output.resolve("zookeeper"), options.ensemble(),
				options.serverSettings(), Duration.ofSeconds(60));
				PeerServers peers = PeerServers.start(output, options.variants())) {
			System.out.println(servers.describe() + "; logs in " + output);
			if (!peers.describe().isEmpty()) {
				System.out.println(peers.describe());
			}
			RunEndpoints endpoints = peers.endpoints(servers.connectString());
			if (options.scenarios().contains(Scenario.UNCONTENDED)) {
				System.out.println("JMH: uncontended cycle (logs: jmh-round-N.log in " + output + ")");
				new JmhCycles(options, endpoints).run().forEach((row) -> report(row, rows));
			}
			if (options.scenarios().contains(Scenario.WRITE_RATE)) {
				System.out.println("Write rate: " + WriteRateMeasurement.setting() + " (set-data's variants)");
				for (Variant variant : options.variantsIn(Scenario.WRITE_RATE)) {
					report(new WriteRateMeasurement(servers.connectString(), options.warmup(), options.seconds())
						.measure(variant), rows);
				}
			}
			if (options.runsWorkers()) {
				try (CuratorFramework client = CuratorConnections.open(servers.connectString());
						ScenarioRunner runner = ScenarioRunner.start(options, endpoints, new NodeCensus(client),
								output.resolve("workers"))) {
					runner.run((row) -> report(row, rows));
				}
			}
		}
		Report report = new Report(options.variants(), options.ensemble(), rows);
		String markdown = report.toMarkdown();
		Files.writeString(output.resolve("results.md"), markdown);
		ResultsJson.write(output.resolve("results.json"), rows, report);
		System.out.println();
		System.out.println(markdown);
		if (options.chart() != null) {
			new HotKeyChart(options.variants(), options.ensemble(), rows).write(options.chart());
			System.out.println("Chart: " + options.chart());
		}
		System.out.printf(Locale.ROOT, "Results: %s; the run took %s%n", output.resolve("results.json"),
				Duration.ofNanos(System.nanoTime() - start).withNanos(0));
		return rows;
	}

	private static void report(ResultRow row, List<ResultRow> rows) {
		rows.add(row);
		String pinned = "";
		if (row.metric(FixedKeysMeasurement.PINNED).isPresent()) {
			pinned = String.format(Locale.ROOT, "  pinned %.0f", row.metric(FixedKeysMeasurement.PINNED).getAsDouble());
		}
		if (row.metric(FixedKeysMeasurement.PINNED_OUTSIDE).isPresent()) {
			pinned += String.format(Locale.ROOT, " (%.0f in warm-up and end)",
					row.metric(FixedKeysMeasurement.PINNED_OUTSIDE).getAsDouble());
		}
		System.out.printf(Locale.ROOT, "  %-24s %-24s %-20s %10.1f %s  exclusion %s%s%n", row.scenario().title(),
				row.setting(), row.variant(), row.throughput(),
				row.scenario().measuresServers() ? "writes/s" : "acquisitions/s",
				row.exclusion().name().toLowerCase(Locale.ROOT), pinned);
	}

}
