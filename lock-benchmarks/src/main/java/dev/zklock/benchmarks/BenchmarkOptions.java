package dev.zklock.benchmarks;

import java.net.URISyntaxException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;

import org.jspecify.annotations.Nullable;

/**
 * The command line of a benchmark run. The defaults run every scenario for the four
 * built-in variants on ZooKeeper and the three limits in about eleven minutes on two
 * cores; the peers on other servers run when named.
 *
 * @param scenarios the scenarios to run
 * @param variants the variants to compare, the baseline, the peers and the limits
 * included
 * @param seconds how long each variant is measured in each fixed-keys setting, all rounds
 * together
 * @param warmup how long each round warms up before measuring
 * @param rounds the rounds of JMH and of each fixed-keys setting, taking the variants in
 * turn
 * @param hotKeyThreads the thread counts of the hot-key scenario
 * @param jvmThreads the threads of each JVM in the two-JVM scenario
 * @param randomKeys the number of keys of the random-keys scenario, among which each
 * acquisition picks one
 * @param randomKeysThreads the threads of the random-keys scenario
 * @param manyKeys the number of distinct keys of the many-keys scenario
 * @param manyKeysThreads the threads of the many-keys scenario
 * @param virtualThreads the virtual threads of the virtual-thread scenario
 * @param jmhIterations the measured JMH iterations of each variant in each round
 * @param jmhWarmups the JMH warm-up iterations of each variant in each round
 * @param jmhTime the length of each JMH iteration, warm-up and measured
 * @param jmhForks the JMH forks of each variant; zero runs JMH in the harness's JVM
 * @param ensemble the number of ZooKeeper servers: 1 for a standalone server
 * @param reapWait the longest wait for ZooKeeper to reap a variant's empty nodes
 * @param jvmOptions further options of the worker JVMs and JMH's forks
 * @param serverSettings further lines of the server's {@code zoo.cfg}
 * @param output the directory of the results, logs and the servers' data
 * @param chart where to write the hot-key chart, if anywhere
 */
record BenchmarkOptions(Set<Scenario> scenarios, List<Variant> variants, Duration seconds, Duration warmup, int rounds,
		List<Integer> hotKeyThreads, int jvmThreads, int randomKeys, int randomKeysThreads, int manyKeys,
		int manyKeysThreads, int virtualThreads, int jmhIterations, int jmhWarmups, Duration jmhTime, int jmhForks,
		int ensemble, Duration reapWait, List<String> jvmOptions, List<String> serverSettings, Path output,
		@Nullable Path chart) {

	static final String USAGE = """
			Usage: java -jar lock-benchmarks.jar [options]
			  --all                      run every scenario (the default)
			  --scenario a,b             uncontended, write-rate (the servers' writes/s, through
			                             set-data), hot-key, two-jvms, sixteen-keys, random-keys,
			                             many-keys, virtual-threads (Java 21 or later: skipped
			                             before)
			  --library a,b              curator, spring-integration, ours-annotation, ours-template,
			                             the limits set-data (uncontended cycle, write rate),
			                             queue-node, the protocol floor (uncontended cycle),
			                             and fair-local-lock (hot-key scenarios); default all
			                             these; curator is the baseline of the ratios, and
			                             ours-template of the ratios to the peers, which run
			                             only when named: redisson, redisson-fenced (on Redis
			                             as it ships), redisson-fsync, redisson-fenced-fsync
			                             (on Redis with appendfsync always), jdbc-registry
			                             and shedlock (on PostgreSQL); the harness starts
			                             their servers
			  --variant name=lib:p=v,... one more variant, such as
			                             ours-no-handoff=ours-template:distributed-lock.hand-off.enabled=false
			  --seconds 10               measured seconds of each variant in each timed setting
			  --rounds 2                 rounds of JMH and of each timed setting (splitting its
			                             seconds), taking the variants forwards, then backwards,
			                             so that drifting load on the machine hits all alike
			  --warmup 2                 warm-up seconds before each round
			  --threads 1,4,16           thread counts of the hot-key scenario
			  --jvm-threads 8            threads per JVM in the two-JVM scenario
			  --random-keys 1000         keys of the random-keys scenario, each acquisition
			                             locking one picked at random (no seed: the keys'
			                             sequence differs from run to run)
			  --random-keys-threads 16   threads of the random-keys scenario
			  --keys 20000               distinct keys of the many-keys scenario
			  --keys-threads 16          threads of the many-keys scenario
			  --virtual-threads 10000    virtual threads of the virtual-thread scenario
			  --jmh-iterations 3         measured JMH iterations per variant and round, after the
			                             warm-up iterations
			  --jmh-warmups 20           JMH warm-up iterations per variant and round: zklock's
			                             path needs about 25,000 cycles to be compiled
			  --jmh-time 1               seconds of each JMH iteration
			  --jmh-forks 1              JMH forks per variant; 0 runs them all inside this JVM,
			                             one after the other, each on the code that those before
			                             it loaded and compiled: to try the harness, not to
			                             compare variants
			  --ensemble 1               ZooKeeper servers: 1 standalone, or an ensemble of 3 (or
			                             more), each in its own JVM; every client connects to
			                             the same follower
			  --reap-wait 60             longest wait in seconds for ZooKeeper to reap empty nodes
			  --jvm-options "-X.. -D.."  more options of the worker JVMs and JMH's forks
			  --zoo-cfg key=value,...    more lines of the server's zoo.cfg, such as forceSync=no
			                             to take the disk's fsync latency out of the comparison
			  --output DIR               results, logs and server data (default lock-benchmarks/target/benchmark)
			  --chart FILE               write the hot-key chart as a PNG
			""";

	/**
	 * Reads the command line.
	 * @param args the arguments
	 * @return the options
	 * @throws IllegalArgumentException if an argument is unknown or malformed
	 */
	static BenchmarkOptions parse(String... args) {
		Set<Scenario> scenarios = EnumSet.allOf(Scenario.class);
		List<Variant> variants = Arrays.stream(Library.values())
			.filter((library) -> !library.isPeer())
			.map(Variant::of)
			.toList();
		List<Variant> extraVariants = new ArrayList<>();
		Duration seconds = Duration.ofSeconds(10);
		Duration warmup = Duration.ofSeconds(2);
		int rounds = 2;
		List<Integer> hotKeyThreads = List.of(1, 4, 16);
		int jvmThreads = 8;
		int randomKeys = 1_000;
		int randomKeysThreads = 16;
		int manyKeys = 20_000;
		int manyKeysThreads = 16;
		int virtualThreads = 10_000;
		int jmhIterations = 3;
		int jmhWarmups = 20;
		Duration jmhTime = Duration.ofSeconds(1);
		int jmhForks = 1;
		int ensemble = 1;
		Duration reapWait = Duration.ofSeconds(60);
		List<String> jvmOptions = List.of();
		List<String> serverSettings = List.of();
		Path output = defaultOutput();
		Path chart = null;
		for (int i = 0; i < args.length; i++) {
			String option = args[i];
			if (option.equals("--all")) {
				scenarios = EnumSet.allOf(Scenario.class);
				continue;
			}
			if (i + 1 == args.length) {
				throw new IllegalArgumentException("Unknown option or missing value: " + option);
			}
			String value = args[++i];
			switch (option) {
				case "--scenario" -> scenarios = EnumSet.copyOf(list(value).stream().map(Scenario::of).toList());
				case "--library" -> variants = list(value).stream().map(Library::of).map(Variant::of).toList();
				case "--variant" -> extraVariants.add(Variant.parse(value));
				case "--seconds" -> seconds = seconds(value);
				case "--warmup" -> warmup = seconds(value);
				case "--rounds" -> rounds = atLeastOne(option, value);
				case "--threads" ->
					hotKeyThreads = list(value).stream().map((threads) -> atLeastOne(option, threads)).toList();
				case "--jvm-threads" -> jvmThreads = atLeastOne(option, value);
				case "--random-keys" -> randomKeys = atLeastOne(option, value);
				case "--random-keys-threads" -> randomKeysThreads = atLeastOne(option, value);
				case "--keys" -> manyKeys = atLeastOne(option, value);
				case "--keys-threads" -> manyKeysThreads = atLeastOne(option, value);
				case "--virtual-threads" -> virtualThreads = atLeastOne(option, value);
				case "--jmh-iterations" -> jmhIterations = atLeastOne(option, value);
				case "--jmh-warmups" -> jmhWarmups = atLeastOne(option, value);
				case "--jmh-time" -> jmhTime = seconds(value);
				case "--jmh-forks" -> jmhForks = Integer.parseInt(value);
				case "--ensemble" -> ensemble = atLeastOne(option, value);
				case "--reap-wait" -> reapWait = seconds(value);
				case "--jvm-options" -> jvmOptions = List.of(value.trim().split("\\s+"));
				case "--zoo-cfg" -> serverSettings = list(value);
				case "--output" -> output = Path.of(value);
				case "--chart" -> chart = Path.of(value);
				default -> throw new IllegalArgumentException("Unknown option: " + option);
			}
		}
		List<Variant> allVariants = new ArrayList<>(variants);
		allVariants.addAll(extraVariants);
		if (allVariants.stream().map(Variant::name).distinct().count() < allVariants.size()) {
			throw new IllegalArgumentException("Variant names must differ: " + allVariants);
		}
		return new BenchmarkOptions(scenarios, allVariants, seconds, warmup, rounds, hotKeyThreads, jvmThreads,
				randomKeys, randomKeysThreads, manyKeys, manyKeysThreads, virtualThreads, jmhIterations, jmhWarmups,
				jmhTime, jmhForks, ensemble, reapWait, jvmOptions, serverSettings, output, chart);
	}

	private static int atLeastOne(String option, String value) {
		int count = Integer.parseInt(value);
		if (count < 1) {
			throw new IllegalArgumentException(option + " must be at least 1: " + value);
		}
		return count;
	}

	private static List<String> list(String value) {
		return Arrays.stream(value.split(",")).map(String::trim).filter((item) -> !item.isEmpty()).toList();
	}

	private static Duration seconds(String value) {
		return Duration.ofMillis(Math.round(Double.parseDouble(value) * 1000));
	}

	/**
	 * {@code benchmark} beside the harness's classes or jar: {@code target/benchmark} of
	 * the module, however the harness was started.
	 */
	private static Path defaultOutput() {
		try {
			Path location = Path.of(BenchmarkOptions.class.getProtectionDomain().getCodeSource().getLocation().toURI());
			return location.getParent().resolve("benchmark");
		}
		catch (URISyntaxException ex) {
			throw new IllegalStateException("Cannot locate the harness's classes", ex);
		}
	}

	/**
	 * The options of every worker JVM and JMH fork: a fixed heap and the serial
	 * collector, so that heap measurements after {@code System.gc()} are exact and alike
	 * for every variant, then the options of the command line.
	 * @return the JVM options
	 */
	List<String> workerJvmOptions() {
		List<String> options = new ArrayList<>(List.of("-Xms64m", "-Xmx512m", "-XX:+UseSerialGC"));
		options.addAll(this.jvmOptions);
		return options;
	}

	/**
	 * The same options without a scenario.
	 * @param scenario the scenario to leave out
	 * @return the options
	 */
	BenchmarkOptions without(Scenario scenario) {
		Set<Scenario> remaining = EnumSet.noneOf(Scenario.class);
		remaining.addAll(this.scenarios);
		remaining.remove(scenario);
		return new BenchmarkOptions(remaining, this.variants, this.seconds, this.warmup, this.rounds,
				this.hotKeyThreads, this.jvmThreads, this.randomKeys, this.randomKeysThreads, this.manyKeys,
				this.manyKeysThreads, this.virtualThreads, this.jmhIterations, this.jmhWarmups, this.jmhTime,
				this.jmhForks, this.ensemble, this.reapWait, this.jvmOptions, this.serverSettings, this.output,
				this.chart);
	}

	boolean runsWorkers() {
		return this.scenarios.stream().anyMatch(Scenario::runsInWorkers);
	}

	/**
	 * The variants that run in a scenario, in order.
	 * @param scenario the scenario
	 * @return its variants
	 */
	List<Variant> variantsIn(Scenario scenario) {
		return this.variants.stream().filter((variant) -> variant.runsIn(scenario)).toList();
	}

}
