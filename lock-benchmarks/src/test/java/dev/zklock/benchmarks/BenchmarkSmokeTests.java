package dev.zklock.benchmarks;

import java.awt.image.BufferedImage;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

import javax.imageio.ImageIO;

import dev.zklock.benchmarks.ResultRow.Exclusion;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs every scenario for every library on ZooKeeper and every limit at tiny sizes
 * against a real ZooKeeper server process ({@link PeerBenchmarkSmokeTests} runs the peers
 * on other servers), and checks that the harness measured each, saw exclusion hold,
 * counted the writes, and wrote its results and chart. JMH runs inside the test's JVM,
 * with iterations of a tenth of a second, since forks would take too long to start.
 */
class BenchmarkSmokeTests {

	private static final List<String> VARIANTS = List.of("curator", "spring-integration", "ours-annotation",
			"ours-template");

	@Test
	void everyScenarioMeasuresEveryLibraryAndExclusionHolds() throws Exception {
		Path output = Path.of("target", "benchmark-smoke");
		Path chart = output.resolve("hot-key.png");
		BenchmarkOptions options = BenchmarkOptions.parse("--scenario",
				"uncontended,write-rate,hot-key,two-jvms,sixteen-keys,random-keys,many-keys", "--seconds", "0.2",
				"--rounds", "1", "--warmup", "0", "--threads", "1,4", "--jvm-threads", "2", "--random-keys", "200",
				"--random-keys-threads", "4", "--keys", "100", "--jmh-forks", "0", "--jmh-iterations", "1",
				"--jmh-warmups", "1", "--jmh-time", "0.1", "--reap-wait", "5", "--jvm-options",
				"-XX:TieredStopAtLevel=1", "--variant", "queue-node-2=queue-node:sessions=2", "--output",
				output.toString(), "--chart", chart.toString());
		// Measuring nothing, it need not wait for another JMH run on the machine
		System.setProperty("jmh.ignoreLock", "true");
		List<ResultRow> rows = BenchmarkHarness.run(options);
		assertThat(rows).hasSize(7 * VARIANTS.size() + 9);
		for (Scenario scenario : options.scenarios().stream().filter(Library.CURATOR::runsIn).toList()) {
			assertThat(rows).filteredOn((row) -> row.scenario() == scenario)
				.extracting(ResultRow::variant)
				.containsAll(VARIANTS);
		}
		assertThat(rows).filteredOn((row) -> row.variant().equals("fair-local-lock"))
			.extracting(ResultRow::scenario)
			.containsExactly(Scenario.HOT_KEY, Scenario.HOT_KEY, Scenario.TWO_JVMS);
		// A cold worker's first acquisition may end after a window this short: no timing
		// here
		assertThat(rows).allSatisfy((row) -> assertThat(row.throughput()).isNotNegative());
		// Each of Curator's acquisitions creates a node and deletes it
		assertThat(rows).filteredOn((row) -> row.variant().equals("curator"))
			.allSatisfy((row) -> assertThat(row.writesPerAcquisition()).isGreaterThanOrEqualTo(2));
		assertThat(rows).filteredOn((row) -> row.variant().equals("fair-local-lock"))
			.allSatisfy((row) -> assertThat(row.writesPerAcquisition()).isZero());
		assertThat(rows).filteredOn((row) -> VARIANTS.contains(row.variant()))
			.allSatisfy((row) -> assertThat(row.writesPerAcquisition()).isPositive());
		assertThat(rows).filteredOn((row) -> row.scenario().runsInWorkers() && row.scenario() != Scenario.MANY_KEYS)
			.extracting(ResultRow::exclusion)
			.containsOnly(Exclusion.HELD);
		// One write per cycle, or per reply of the write rate, and each node once
		assertThat(rows).filteredOn((row) -> row.variant().equals("set-data"))
			.allSatisfy((row) -> assertThat(row.writesPerAcquisition()).isBetween(1.0, 1.1))
			.extracting(ResultRow::scenario)
			.containsExactly(Scenario.UNCONTENDED, Scenario.WRITE_RATE);
		assertThat(rows).filteredOn((row) -> row.scenario() == Scenario.WRITE_RATE)
			.singleElement()
			.satisfies((row) -> assertThat(row.metric("writes measured")).isPresent());
		// A create and a delete per cycle, and the key's node with its parents once (once
		// per key of 16, which a short window does not spread thin)
		assertThat(rows).filteredOn((row) -> row.variant().startsWith("queue-node"))
			.allSatisfy((row) -> assertThat(row.writesPerAcquisition()).isGreaterThanOrEqualTo(2.0))
			.extracting(ResultRow::scenario)
			.containsExactlyInAnyOrder(Scenario.UNCONTENDED, Scenario.SIXTEEN_KEYS, Scenario.UNCONTENDED,
					Scenario.SIXTEEN_KEYS);
		assertThat(rows)
			.filteredOn((row) -> row.variant().equals("queue-node") && row.scenario() == Scenario.UNCONTENDED)
			.singleElement()
			.satisfies((row) -> assertThat(row.writesPerAcquisition()).isBetween(2.0, 2.2));
		assertThat(rows).filteredOn((row) -> row.scenario() == Scenario.TWO_JVMS)
			.allSatisfy((row) -> assertThat(row.metrics()).extracting(Metric::name)
				.contains("JVM 1 share", "JVM 2 share", "JVM 1 max wait", "JVM 2 max wait"));
		assertThat(rows).filteredOn((row) -> row.scenario() == Scenario.RANDOM_KEYS)
			.allSatisfy((row) -> assertThat(row.setting()).isEqualTo("200 keys × 4 threads"));
		assertThat(rows).filteredOn((row) -> row.scenario() == Scenario.MANY_KEYS)
			.allSatisfy((row) -> assertThat(row.metrics()).extracting(Metric::name)
				.contains("heap growth", "nodes after reaping"));
		// Platform threads: the JVM counts what the locking threads allocate
		assertThat(rows)
			.filteredOn((row) -> row.scenario() == Scenario.HOT_KEY && !row.variant().equals("fair-local-lock"))
			.isNotEmpty()
			.allSatisfy((row) -> assertThat(row.metric(FixedKeysMeasurement.ALLOCATED).orElse(0)).isPositive());
		assertThat(JsonMapper.shared().readTree(output.resolve("results.json")).values()).hasSameSizeAs(rows)
			.allSatisfy((row) -> assertThat(row.has("writesPerAcquisition") && row.has("writeCapacity")).isTrue())
			.anySatisfy((row) -> assertThat(row.path("ratioToCurator").doubleValue(0)).isEqualTo(1.0))
			.anySatisfy((row) -> assertThat(row.path("scenario").asString()).isEqualTo("write-rate"))
			.anySatisfy((row) -> {
				assertThat(row.path("limit").asString()).isEqualTo("fair-local-lock");
				assertThat(row.path("throughputToLimit").doubleValue(0)).isEqualTo(1.0);
			});
		assertThat(Files.readString(output.resolve("results.md"))).contains("Against the physical limits")
			.contains("each JVM's throughput ÷ fair-local-lock's in that JVM")
			.contains("time per cycle ÷ one set-data round trip")
			.contains("time per cycle ÷ the protocol floor (queue-node)")
			.contains("Capacity if ZooKeeper writes are the bottleneck")
			.contains("– (no writes) (fair-local-lock)");
		BufferedImage image = ImageIO.read(chart.toFile());
		assertThat(image.getWidth()).isGreaterThan(image.getHeight());
	}

	@Test
	void anEnsembleOfThreeServesTheWorkers() throws Exception {
		Path output = Path.of("target", "benchmark-smoke-ensemble");
		BenchmarkOptions options = BenchmarkOptions.parse("--ensemble", "3", "--scenario", "hot-key", "--library",
				"ours-template", "--threads", "2", "--seconds", "0.2", "--rounds", "1", "--warmup", "0",
				"--jvm-options", "-XX:TieredStopAtLevel=1", "--output", output.toString());
		List<ResultRow> rows = BenchmarkHarness.run(options);
		assertThat(rows).singleElement().satisfies((row) -> {
			assertThat(row.exclusion()).isEqualTo(Exclusion.HELD);
			assertThat(row.writesPerAcquisition()).isPositive();
		});
		assertThat(Files.readString(output.resolve("results.md"))).startsWith("On a ZooKeeper ensemble of 3 servers");
		for (int id = 1; id <= 3; id++) {
			assertThat(Files.readString(output.resolve("zookeeper/server-" + id + "/zoo.cfg")))
				.contains("server.3=127.0.0.1:");
		}
	}

	@Test
	void virtualThreadsTakeTurnsOnOneKeyAndLockAKeyEachOnJava21AndLater() throws Exception {
		assumeTrue(VirtualThreads.unsupportedReason().isEmpty(), "Virtual threads need Java 21 or later");
		Path output = Path.of("target", "benchmark-smoke-virtual-threads");
		BenchmarkOptions options = BenchmarkOptions.parse("--scenario", "virtual-threads", "--virtual-threads", "200",
				"--library", "curator,ours-template,fair-local-lock", "--seconds", "0.3", "--warmup", "0.2",
				"--jvm-options", "-XX:TieredStopAtLevel=1", "--output", output.toString());
		List<ResultRow> rows = BenchmarkHarness.run(options);
		// Curator queues every waiting thread in ZooKeeper: left out on one key
		assertThat(rows).filteredOn((row) -> row.setting().startsWith("1 key"))
			.extracting(ResultRow::variant)
			.containsExactly("ours-template", "fair-local-lock");
		assertThat(rows).filteredOn((row) -> row.setting().startsWith("200 keys"))
			.extracting(ResultRow::variant)
			.containsExactly("curator", "ours-template", "fair-local-lock");
		assertThat(rows).allSatisfy((row) -> {
			assertThat(row.threads()).isEqualTo(200);
			assertThat(row.throughput()).isNotNegative();
			assertThat(row.metric(FixedKeysMeasurement.PINNED)).isPresent();
		});
		assertThat(rows).filteredOn((row) -> row.setting().startsWith("1 key"))
			.allSatisfy((row) -> assertThat(row.exclusion()).isEqualTo(Exclusion.HELD));
		assertThat(output.resolve("workers")).isDirectoryContaining("glob:**-pinned.jfr");
	}

	@Test
	void virtualThreadsAreSkippedBeforeJava21() throws Exception {
		assumeTrue(VirtualThreads.unsupportedReason().isPresent(), "Virtual threads run on Java 21 and later");
		BenchmarkOptions options = BenchmarkOptions.parse("--scenario", "virtual-threads", "--output",
				Path.of("target", "benchmark-smoke-no-virtual-threads").toString());
		assertThat(BenchmarkHarness.run(options)).isEmpty();
	}

	@Test
	void jmhListsTheUncontendedCycle() throws Exception {
		try (InputStream list = getClass().getResourceAsStream("/META-INF/BenchmarkList")) {
			assertThat(list).isNotNull();
			assertThat(new String(list.readAllBytes(), StandardCharsets.UTF_8))
				.contains(UncontendedCycleBenchmark.class.getName());
		}
	}

}
