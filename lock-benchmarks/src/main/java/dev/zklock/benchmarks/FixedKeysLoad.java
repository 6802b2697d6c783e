package dev.zklock.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;

/**
 * Threads that lock a fixed set of keys over and over for a time: thread {@code i} locks
 * key {@code i mod keys}, so one key makes a hot key and as many keys as threads make
 * parallel, uncontended work. After a warm-up, the acquisitions of the measured window
 * count. Each critical section goes through the run's {@link ExclusionProbe}. Virtual
 * threads run under a recording of {@link PinnedEvents}, kept beside the probe.
 *
 * @param threads the number of threads
 * @param keys the number of keys
 * @param warmup how long to run before measuring
 * @param duration how long to measure
 * @param virtual whether the threads are virtual ones
 * @param probeFile the run's exclusion probe, shared with the other workers of the run
 * when the locks exclude across JVMs
 */
record FixedKeysLoad(int threads, int keys, Duration warmup, Duration duration, boolean virtual,
		Path probeFile) implements Workload {

	@Override
	public WorkerResult run(LockDriver driver) throws InterruptedException, IOException {
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
		ThreadFactory factory = this.virtual ? VirtualThreads.factory() : Thread::new;
		PinnedEvents pinned = this.virtual ? new PinnedEvents(pinnedEventsFile()) : null;
		try {
			long writes = driver.writes();
			lockers.forEach((locker) -> locker.start(factory));
			Thread.sleep(this.warmup.toMillis());
			window.measuring = true;
			Instant measuredFrom = Instant.now();
			long start = System.nanoTime();
			Thread.sleep(this.duration.toMillis());
			window.stopped = true;
			long nanos = System.nanoTime() - start;
			window.measuring = false;
			Instant measuredUntil = Instant.now();
			LockingThread.awaitAll(lockers, LockDriver.WAIT_TIME.plusSeconds(10));
			return LockingThread.sum(lockers, nanos, driver.writes() - writes, null,
					(pinned != null) ? pinned.stop(measuredFrom, measuredUntil) : null);
		}
		finally {
			if (pinned != null) {
				pinned.close();
			}
		}
	}

	/**
	 * The same load with another exclusion probe.
	 * @param file the other probe's file
	 * @return the load
	 */
	FixedKeysLoad withProbeFile(Path file) {
		return new FixedKeysLoad(this.threads, this.keys, this.warmup, this.duration, this.virtual, file);
	}

	private Path pinnedEventsFile() {
		return this.probeFile
			.resolveSibling(this.probeFile.getFileName() + "-pid-" + ProcessHandle.current().pid() + "-pinned.jfr");
	}

	@Override
	public String toCommand() {
		return "fixed " + this.threads + " " + this.keys + " " + this.warmup.toMillis() + " " + this.duration.toMillis()
				+ " " + (this.virtual ? "virtual" : "platform") + " " + this.probeFile;
	}

	/**
	 * The phase of the run, as the threads see it.
	 */
	private static final class Window {

		volatile boolean measuring;

		volatile boolean stopped;

	}

}
