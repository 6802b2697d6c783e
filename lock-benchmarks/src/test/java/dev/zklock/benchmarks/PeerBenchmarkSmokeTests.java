package dev.zklock.benchmarks;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;

import dev.zklock.benchmarks.ResultRow.Exclusion;
import org.junit.jupiter.api.Test;
import tools.jackson.databind.JsonNode;
import tools.jackson.databind.json.JsonMapper;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Runs the peers on Redis and PostgreSQL beside zklock at tiny sizes in every lock
 * scenario of issue 28 and in the keys at random that came after it, against the servers
 * that the harness starts, and checks that each peer was measured, kept exclusion,
 * counted its writes, and got its ratio against zklock. A peer whose server program is
 * not found on this machine is left out; with none found, the test is skipped.
 */
class PeerBenchmarkSmokeTests {

	private static final List<Scenario> SCENARIOS = List.of(Scenario.UNCONTENDED, Scenario.HOT_KEY, Scenario.TWO_JVMS,
			Scenario.SIXTEEN_KEYS, Scenario.RANDOM_KEYS, Scenario.MANY_KEYS);

	@Test
	void everyPeerIsMeasuredBesideZkLockInEveryScenarioAndExclusionHolds() throws Exception {
		List<String> peers = Arrays.stream(Library.values())
			.filter((library) -> library.peerServer().filter(PeerServers::isAvailable).isPresent())
			.map(Library::id)
			.toList();
		assumeTrue(!peers.isEmpty(), "Neither redis-server nor PostgreSQL's programs are found");
		List<String> libraries = new ArrayList<>(peers);
		libraries.add("ours-template");
		Path output = Path.of("target", "benchmark-smoke-peers");
		BenchmarkOptions options = BenchmarkOptions.parse("--scenario",
				String.join(",", SCENARIOS.stream().map(Scenario::id).toList()), "--library",
				String.join(",", libraries), "--seconds", "0.2", "--rounds", "1", "--warmup", "0", "--threads", "4",
				"--jvm-threads", "2", "--random-keys", "50", "--random-keys-threads", "4", "--keys", "50",
				"--jmh-forks", "0", "--jmh-iterations", "1", "--jmh-warmups", "1", "--jmh-time", "0.1", "--reap-wait",
				"5", "--jvm-options", "-XX:TieredStopAtLevel=1", "--output", output.toString());
		// Measuring nothing, it need not wait for another JMH run on the machine
		System.setProperty("jmh.ignoreLock", "true");
		List<ResultRow> rows = BenchmarkHarness.run(options);
		for (Scenario scenario : SCENARIOS) {
			assertThat(rows).filteredOn((row) -> row.scenario() == scenario)
				.extracting(ResultRow::variant)
				.containsExactlyInAnyOrderElementsOf(libraries);
		}
		assertThat(rows).filteredOn((row) -> peers.contains(row.variant()))
			.allSatisfy((row) -> assertThat(row.writesPerAcquisition()).isPositive());
		// An acquisition's script and a release's at least, or the statements of both
		assertThat(rows).filteredOn((row) -> row.scenario() == Scenario.UNCONTENDED && peers.contains(row.variant()))
			.allSatisfy((row) -> assertThat(row.writesPerAcquisition()).isGreaterThanOrEqualTo(2));
		assertThat(rows).filteredOn((row) -> row.scenario().runsInWorkers() && row.scenario() != Scenario.MANY_KEYS)
			.extracting(ResultRow::exclusion)
			.containsOnly(Exclusion.HELD);
		// The census of ZooKeeper's nodes is for the libraries on ZooKeeper only
		assertThat(rows).filteredOn((row) -> row.scenario() == Scenario.MANY_KEYS)
			.allSatisfy((row) -> assertThat(row.metric("nodes after run").isPresent())
				.isEqualTo(row.variant().equals("ours-template")));
		JsonNode json = JsonMapper.shared().readTree(output.resolve("results.json"));
		// A cold worker's first acquisition may end after a window this short: zklock's
		// throughput may be zero, and the ratios against it none
		assertThat(json.values()).hasSameSizeAs(rows)
			.allSatisfy((row) -> assertThat(row.has("ratioToOursTemplate")).isTrue())
			.anySatisfy((row) -> {
				assertThat(row.path("variant").asString()).isEqualTo("ours-template");
				assertThat(row.path("ratioToOursTemplate").doubleValue(0)).isEqualTo(1.0);
			})
			.filteredOn((row) -> peers.contains(row.path("variant").asString()))
			.allSatisfy((row) -> assertThat(row.path("writeCapacity").isNull()).isTrue());
		assertThat(Files.readString(output.resolve("results.md")))
			.contains("Throughput against zklock (ours-template) in the same run")
			.contains("on Redis the Lua script calls");
	}

}
