package dev.zklock.benchmarks;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/**
 * Threads that lock a fixed set of keys over and over for a time: thread {@code i} locks
 * key {@code i mod keys}, so one key makes a hot key and as many keys as threads make
 * parallel, uncontended work. After a warm-up, the acquisitions of the measured window
 * count. Each critical section goes through the run's {@link ExclusionProbe}.
 *
 * @param threads the number of threads
 * @param keys the number of keys
 * @param warmup how long to run before measuring
 * @param duration how long to measure
 * @param probeFile the run's exclusion probe, shared with the other workers of the run
 * when the locks exclude across JVMs
 */
record FixedKeysLoad(int threads, int keys, Duration warmup, Duration duration, Path probeFile) implements Workload {

	@Override
	public WorkerResult run(LockDriver driver) throws InterruptedException {
		ExclusionProbe probe = ExclusionProbe.map(this.probeFile, this.keys);
		Window window = new Window();
		long ownerBase = ProcessHandle.current().pid() << 20;
		List<LockingThread> lockers = new ArrayList<>();
		for (int i = 0; i < this.threads; i++) {
			int key = i % this.keys;
			long owner = ownerBase + i + 1;
			String name = "key-" + key;
			lockers.add(new LockingThread("locker-" + i, driver, () -> window.stopped ? null : name, () -> {
				probe.enter(key, owner);
				probe.exit(key, owner);
			}, () -> window.measuring));
		}
		long writes = driver.writes();
		lockers.forEach(Thread::start);
		Thread.sleep(this.warmup.toMillis());
		window.measuring = true;
		long start = System.nanoTime();
		Thread.sleep(this.duration.toMillis());
		window.stopped = true;
		long nanos = System.nanoTime() - start;
		window.measuring = false;
		LockingThread.awaitAll(lockers, LockDriver.WAIT_TIME.plusSeconds(10));
		return LockingThread.sum(lockers, nanos, driver.writes() - writes, null);
	}

	@Override
	public String toCommand() {
		return "fixed " + this.threads + " " + this.keys + " " + this.warmup.toMillis() + " " + this.duration.toMillis()
				+ " " + this.probeFile;
	}

	/**
	 * The phase of the run, as the threads see it.
	 */
	private static final class Window {

		volatile boolean measuring;

		volatile boolean stopped;

	}

}
