package dev.zklock.benchmarks;

import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads that lock many distinct keys, each once, and release them: the throughput of
 * first-time keys, and how much the library retains afterwards, measured as the growth of
 * the used heap after garbage collection from before the first key to after the last.
 * Virtual threads run under a recording of {@link PinnedEvents}, the whole run measured.
 *
 * @param threads the number of threads
 * @param count the number of distinct keys
 * @param virtual whether the threads are virtual ones
 * @param directory where the recording of pinned events goes
 */
record DistinctKeysLoad(int threads, int count, boolean virtual, Path directory) implements Workload {

	@Override
	public WorkerResult run(LockDriver driver) throws InterruptedException, IOException {
		AtomicInteger next = new AtomicInteger();
		String prefix = this.virtual ? "virtual-" : "distinct-";
		List<LockingThread> lockers = new ArrayList<>();
		for (int i = 0; i < this.threads; i++) {
			lockers.add(new LockingThread("locker-" + i, driver, () -> {
				int key = next.getAndIncrement();
				return (key < this.count) ? prefix + key : null;
			}, () -> {
			}, () -> true));
		}
		long heapBefore = usedHeapAfterGc();
		ThreadFactory factory = this.virtual ? VirtualThreads.factory() : Thread::new;
		PinnedEvents pinned = this.virtual
				? new PinnedEvents(this.directory.resolve(
						"distinct-keys-pid-" + ProcessHandle.current().pid() + "-" + System.nanoTime() + "-pinned.jfr"))
				: null;
		try {
			long writes = driver.writes();
			Instant startedAt = Instant.now();
			long start = System.nanoTime();
			lockers.forEach((locker) -> locker.start(factory));
			LockingThread.awaitAll(lockers, timeLimit());
			long nanos = System.nanoTime() - start;
			PinnedEvents.Count pinnedEvents = (pinned != null) ? pinned.stop(startedAt, Instant.now()) : null;
			long heapGrowth = usedHeapAfterGc() - heapBefore;
			return LockingThread.sum(lockers, nanos, driver.writes() - writes, heapGrowth, pinnedEvents);
		}
		finally {
			if (pinned != null) {
				pinned.close();
			}
		}
	}

	/**
	 * How long the run may take: 20 ms per key and thread, and four minutes more.
	 * @return the time limit
	 */
	Duration timeLimit() {
		return Duration.ofMillis(20L * this.count / this.threads).plusMinutes(4);
	}

	private static long usedHeapAfterGc() throws InterruptedException {
		for (int i = 0; i < 3; i++) {
			System.gc();
			Thread.sleep(50);
		}
		return ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed();
	}

	@Override
	public String toCommand() {
		return "distinct " + this.threads + " " + this.count + " " + (this.virtual ? "virtual" : "platform") + " "
				+ this.directory;
	}

}
