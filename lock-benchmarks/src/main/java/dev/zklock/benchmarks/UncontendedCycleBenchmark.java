package dev.zklock.benchmarks;

import java.io.IOException;
import java.nio.file.Path;

import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;

/**
 * JMH benchmark of the uncontended cycle: one thread acquires and releases the lock of
 * one key, with an empty critical section. {@link JmhCycles} runs it once per variant,
 * each in a fork of its own, against the harness's servers. At the end of a fork, its
 * cycles and the ZooKeeper writes they sent go to the {@link CycleWrites} file.
 */
@State(Scope.Benchmark)
public class UncontendedCycleBenchmark {

	/**
	 * The variant under test, in its text form.
	 */
	@Param("curator")
	public String variant;

	/**
	 * The servers of the run, in the text form of {@link RunEndpoints}.
	 */
	@Param("zookeeper=127.0.0.1:2181")
	public String endpoints;

	/**
	 * Where the fork adds its count of cycles and writes; empty for nowhere.
	 */
	@Param("")
	public String writesFile;

	private static final Runnable NOTHING = () -> {
	};

	private LockDriver driver;

	private long cycles;

	/**
	 * Connects the variant's driver.
	 */
	@Setup
	public void connect() {
		this.driver = Variant.parse(this.variant).open(RunEndpoints.parse(this.endpoints));
	}

	/**
	 * One acquire and release.
	 * @throws Exception if the lock cannot be acquired or released
	 */
	@Benchmark
	public void cycle() throws Exception {
		this.driver.withLock("uncontended", NOTHING);
		this.cycles++;
	}

	/**
	 * Adds the fork's cycles and writes to the file, and disconnects the driver.
	 * @throws Exception if it cannot be closed
	 */
	@TearDown
	public void disconnect() throws Exception {
		try {
			if (!this.writesFile.isEmpty()) {
				CycleWrites.append(Path.of(this.writesFile), Variant.parse(this.variant).name(), this.cycles,
						this.driver.writes());
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot write " + this.writesFile, ex);
		}
		finally {
			this.driver.close();
		}
	}

}
