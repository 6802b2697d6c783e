package dev.zklock.benchmarks;

import java.lang.management.ManagementFactory;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Threads that lock many distinct keys, each once, and release them: the throughput of
 * first-time keys, and how much the library retains afterwards, measured as the growth of
 * the used heap after garbage collection from before the first key to after the last.
 *
 * @param threads the number of threads
 * @param count the number of distinct keys
 */
record DistinctKeysLoad(int threads, int count) implements Workload {

	@Override
	public WorkerResult run(LockDriver driver) throws InterruptedException {
		AtomicInteger next = new AtomicInteger();
		List<LockingThread> lockers = new ArrayList<>();
		for (int i = 0; i < this.threads; i++) {
			lockers.add(new LockingThread("locker-" + i, driver, () -> {
				int key = next.getAndIncrement();
				return (key < this.count) ? "distinct-" + key : null;
			}, () -> {
			}, () -> true));
		}
		long heapBefore = usedHeapAfterGc();
		long writes = driver.writes();
		long start = System.nanoTime();
		lockers.forEach(Thread::start);
		LockingThread.awaitAll(lockers, timeLimit());
		long nanos = System.nanoTime() - start;
		long heapGrowth = usedHeapAfterGc() - heapBefore;
		return LockingThread.sum(lockers, nanos, driver.writes() - writes, heapGrowth);
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
		return "distinct " + this.threads + " " + this.count;
	}

}
