package dev.zklock.benchmarks;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.ThreadFactory;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

import org.jspecify.annotations.Nullable;

/**
 * A thread of a workload, platform or virtual: locks key after key through the driver
 * until its key source runs dry, runs a critical section under each lock, and counts the
 * acquisitions and the longest wait of those that completed while the workload was
 * measuring.
 */
final class LockingThread implements Runnable {

	private final String name;

	private final LockDriver driver;

	private final Supplier<@Nullable String> keys;

	private final Runnable criticalSection;

	private final BooleanSupplier measuring;

	private long enteredAt;

	private long measured;

	private long total;

	private long maxWaitNanos;

	/** The bytes the thread allocated over its run, or {@code -1} if not counted. */
	private long allocatedBytes = -1;

	private @Nullable Exception failure;

	private @Nullable Thread thread;

	/**
	 * Creates a thread; it starts with {@link #start(ThreadFactory)}.
	 * @param name the thread's name
	 * @param driver the library under test
	 * @param keys the next key to lock, or {@code null} to stop
	 * @param criticalSection what to run under each lock
	 * @param measuring whether an acquisition completed now counts
	 */
	LockingThread(String name, LockDriver driver, Supplier<@Nullable String> keys, Runnable criticalSection,
			BooleanSupplier measuring) {
		this.name = name;
		this.driver = driver;
		this.keys = keys;
		this.criticalSection = criticalSection;
		this.measuring = measuring;
	}

	/**
	 * Starts the thread.
	 * @param threads makes the thread, platform or virtual
	 */
	void start(ThreadFactory threads) {
		Thread started = threads.newThread(this);
		started.setName(this.name);
		started.start();
		this.thread = started;
	}

	@Override
	public void run() {
		try {
			long allocatedBefore = allocatedBytesOfThisThread();
			String key;
			while ((key = this.keys.get()) != null) {
				long requestedAt = System.nanoTime();
				this.driver.withLock(key, this::enter);
				this.total++;
				if (this.measuring.getAsBoolean()) {
					this.measured++;
					this.maxWaitNanos = Math.max(this.maxWaitNanos, this.enteredAt - requestedAt);
				}
			}
			long allocatedAfter = allocatedBytesOfThisThread();
			this.allocatedBytes = (allocatedBefore >= 0 && allocatedAfter >= 0) ? allocatedAfter - allocatedBefore : -1;
		}
		catch (Exception ex) {
			this.failure = ex;
		}
	}

	/**
	 * The bytes the calling thread allocated so far, as the JVM counts them.
	 * @return the bytes, or {@code -1} if the JVM does not count them for this thread (as
	 * for virtual threads)
	 */
	private static long allocatedBytesOfThisThread() {
		ThreadMXBean threads = ManagementFactory.getThreadMXBean();
		if (threads instanceof com.sun.management.ThreadMXBean counting && counting.isThreadAllocatedMemoryEnabled()) {
			return counting.getCurrentThreadAllocatedBytes();
		}
		return -1;
	}

	private void enter() {
		this.enteredAt = System.nanoTime();
		this.criticalSection.run();
	}

	/**
	 * Waits for the threads to finish.
	 * @param threads the started threads
	 * @param timeout how long to wait for them all
	 * @throws InterruptedException if interrupted while waiting
	 * @throws IllegalStateException if a thread failed or did not finish in time
	 */
	static void awaitAll(List<LockingThread> threads, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		for (LockingThread locker : threads) {
			Thread thread = locker.thread;
			if (thread == null) {
				throw new IllegalStateException(locker.name + " was not started");
			}
			thread.join(Math.max(1, (deadline - System.nanoTime()) / 1_000_000));
			if (thread.isAlive()) {
				throw new IllegalStateException(locker.name + " did not finish within " + timeout);
			}
			if (locker.failure != null) {
				throw new IllegalStateException(locker.name + " failed", locker.failure);
			}
		}
	}

	/**
	 * Adds up what the finished threads counted.
	 * @param threads the threads, finished
	 * @param nanos the length of the measured window
	 * @param writes the ZooKeeper writes of the whole run
	 * @param heapGrowthBytes the heap growth measured around the run, if any
	 * @param pinned the virtual threads' pinned events recorded during the run, if any
	 * @return the worker's result
	 */
	static WorkerResult sum(List<LockingThread> threads, long nanos, long writes, @Nullable Long heapGrowthBytes,
			PinnedEvents.@Nullable Count pinned) {
		long measured = 0;
		long total = 0;
		long maxWaitNanos = 0;
		Long allocatedBytes = 0L;
		for (LockingThread thread : threads) {
			measured += thread.measured;
			total += thread.total;
			maxWaitNanos = Math.max(maxWaitNanos, thread.maxWaitNanos);
			allocatedBytes = (allocatedBytes != null && thread.allocatedBytes >= 0)
					? allocatedBytes + thread.allocatedBytes : null;
		}
		return new WorkerResult(measured, total, nanos, maxWaitNanos, writes, heapGrowthBytes,
				(pinned != null) ? pinned.measured() : null, (pinned != null) ? pinned.outside() : null,
				allocatedBytes);
	}

}
