package dev.zklock.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.ThreadLocalRandom;

/**
 * Threads that lock a fixed set of keys over and over for a time, each acquisition's key
 * picked by the load's {@link KeyChoice}: by thread, so that one key makes a hot key and
 * as many keys as threads make parallel, uncontended work, or at random, so that keys
 * come back after a while and two threads meet on a key now and then. After a warm-up,
 * the acquisitions of the measured window count. Each critical section goes through the
 * run's {@link ExclusionProbe}, which maps every key of the load. Virtual threads run
 * under a recording of {@link PinnedEvents}, kept beside the probe.
 *
 * @param threads the number of threads
 * @param keys the number of keys
 * @param keyChoice how a thread picks the key of each acquisition
 * @param warmup how long to run before measuring
 * @param duration how long to measure
 * @param virtual whether the threads are virtual ones
 * @param probeFile the run's exclusion probe, shared with the other workers of the run
 * when the locks exclude across JVMs
 */
record FixedKeysLoad(int threads, int keys, KeyChoice keyChoice, Duration warmup, Duration duration, boolean virtual,
		Path probeFile) implements Workload {

	@Override
	public WorkerResult run(LockDriver driver) throws InterruptedException, IOException {
		ExclusionProbe probe = ExclusionProbe.map(this.probeFile, this.keys);
		// Named once, so that an acquisition allocates no name of its own
		String[] names = new String[this.keys];
		for (int key = 0; key < this.keys; key++) {
			names[key] = "key-" + key;
		}
		Window window = new Window();
		long ownerBase = ProcessHandle.current().pid() << 20;
		List<LockingThread> lockers = new ArrayList<>();
		for (int i = 0; i < this.threads; i++) {
			int thread = i;
			long owner = ownerBase + i + 1;
			// The key of the thread's current acquisition: picked by the thread before it
			// locks, read by the same thread under the lock
			int[] held = new int[1];
			lockers.add(new LockingThread("locker-" + i, driver, () -> {
				if (window.stopped) {
					return null;
				}
				held[0] = this.keyChoice.keyOf(thread, this.keys);
				return names[held[0]];
			}, () -> {
				probe.enter(held[0], owner);
				probe.exit(held[0], owner);
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
		return new FixedKeysLoad(this.threads, this.keys, this.keyChoice, this.warmup, this.duration, this.virtual,
				file);
	}

	private Path pinnedEventsFile() {
		return this.probeFile
			.resolveSibling(this.probeFile.getFileName() + "-pid-" + ProcessHandle.current().pid() + "-pinned.jfr");
	}

	@Override
	public String toCommand() {
		return "fixed " + this.threads + " " + this.keys + " " + this.keyChoice.id() + " " + this.warmup.toMillis()
				+ " " + this.duration.toMillis() + " " + (this.virtual ? "virtual" : "platform") + " " + this.probeFile;
	}

	/**
	 * How a thread of the load picks the key of each acquisition, named on a workload's
	 * command line {@code by-thread} and {@code at-random}.
	 */
	enum KeyChoice {

		/**
		 * Thread {@code i} locks key {@code i mod keys}, every time.
		 */
		BY_THREAD,

		/**
		 * Each acquisition locks a key picked uniformly at random among all, by the
		 * thread's {@link ThreadLocalRandom}: the harness has no seed, so the sequence of
		 * keys differs from run to run, while its mix does not.
		 */
		AT_RANDOM;

		/**
		 * The key of a thread's next acquisition; called by that thread.
		 * @param thread the thread's index in the load
		 * @param keys the number of keys
		 * @return the key's index, from 0 to {@code keys - 1}
		 */
		int keyOf(int thread, int keys) {
			return switch (this) {
				case BY_THREAD -> thread % keys;
				case AT_RANDOM -> ThreadLocalRandom.current().nextInt(keys);
			};
		}

		String id() {
			return CommandLineNames.of(this);
		}

		static KeyChoice of(String id) {
			return CommandLineNames.parse(KeyChoice.class, id);
		}

	}

	/**
	 * The phase of the run, as the threads see it.
	 */
	private static final class Window {

		volatile boolean measuring;

		volatile boolean stopped;

	}

}
