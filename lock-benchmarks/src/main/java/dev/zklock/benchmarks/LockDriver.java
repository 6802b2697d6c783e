package dev.zklock.benchmarks;

import java.time.Duration;

/**
 * One library's way to run work under the lock of a key: the thing every scenario
 * measures. Implementations are safe for use by many threads at once.
 */
interface LockDriver extends AutoCloseable {

	/**
	 * How long any driver waits for a lock before failing the run.
	 */
	Duration WAIT_TIME = Duration.ofSeconds(60);

	/**
	 * Acquires the lock of the key, runs the work and releases the lock.
	 * @param key the lock key
	 * @param work the critical section
	 * @throws Exception if the lock could not be acquired or released
	 */
	void withLock(String key, Runnable work) throws Exception;

	/**
	 * The ZooKeeper writes (creates, deletes, setData and multi-operation transactions)
	 * that the driver's client has sent since it was opened, counted as they are sent.
	 * @return the count
	 */
	long writes();

}
