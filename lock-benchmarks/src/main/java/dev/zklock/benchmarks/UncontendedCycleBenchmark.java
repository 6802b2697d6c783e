package dev.zklock.benchmarks;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * JMH benchmark of the uncontended cycle: one thread acquires and releases the lock of
 * one key, with an empty critical section. {@link JmhCycles} runs it once per variant,
 * each in a fork of its own, against the harness's ZooKeeper server.
 */
@State(Scope.Benchmark)
public class UncontendedCycleBenchmark {

	/**
	 * The variant under test, in its text form.
	 */
	@Param("curator")
	public String variant;

	/**
	 * The ZooKeeper connect string.
	 */
	@Param("127.0.0.1:2181")
	public String connectString;

	private static final Runnable NOTHING = () -> {
	};

	private LockDriver driver;

	/**
	 * Connects the variant's driver.
	 */
	@Setup
	public void connect() {
		this.driver = Variant.parse(this.variant).open(this.connectString);
	}

	/**
	 * One acquire and release.
	 * @throws Exception if the lock cannot be acquired or released
	 */
	@Benchmark
	public void cycle() throws Exception {
		this.driver.withLock("uncontended", NOTHING);
	}

	/**
	 * Disconnects the driver.
	 * @throws Exception if it cannot be closed
	 */
	@TearDown
	public void disconnect() throws Exception {
		this.driver.close();
	}

}
