package dev.zklock.benchmarks;

/**
 * The scenarios of a benchmark run, named as on the command line and listed in the order
 * they run.
 */
enum Scenario {

	/**
	 * One thread acquires and releases one key, measured by JMH.
	 */
	UNCONTENDED("uncontended cycle (JMH)"),

	/**
	 * The servers' sustained write rate, measured in the harness's JVM: no lock, but what
	 * sizes an ensemble, see {@link WriteCapacity}.
	 */
	WRITE_RATE("write rate (writes/s)"),

	/**
	 * Threads of one JVM take turns on one key.
	 */
	HOT_KEY("one hot key"),

	/**
	 * Threads of two JVMs take turns on one key.
	 */
	TWO_JVMS("one hot key, two JVMs"),

	/**
	 * Sixteen threads each lock a key of their own.
	 */
	SIXTEEN_KEYS("16 keys"),

	/**
	 * Threads lock keys picked at random, a key per acquisition, among a thousand by
	 * default: keys used again soon after and keys whose node ZooKeeper has reaped
	 * meanwhile, and now and then two threads on one key.
	 */
	RANDOM_KEYS("keys at random"),

	/**
	 * Threads lock many distinct keys once each.
	 */
	MANY_KEYS("distinct keys"),

	/**
	 * Many virtual threads on one key, then each on a key of its own; Java 21 and later.
	 */
	VIRTUAL_THREADS("virtual threads");

	private final String title;

	Scenario(String title) {
		this.title = title;
	}

	String id() {
		return CommandLineNames.of(this);
	}

	String title() {
		return this.title;
	}

	/**
	 * Whether the scenario measures the servers rather than a lock: no variant is
	 * compared with it.
	 * @return true for the write rate
	 */
	boolean measuresServers() {
		return this == WRITE_RATE;
	}

	/**
	 * Whether the scenario runs in worker JVMs, rather than in JMH's forks or the
	 * harness's JVM.
	 * @return false for the uncontended cycle and the write rate
	 */
	boolean runsInWorkers() {
		return this != UNCONTENDED && !measuresServers();
	}

	static Scenario of(String id) {
		return CommandLineNames.parse(Scenario.class, id);
	}

}
