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
	 * The writes that the driver's client has sent to its server since it was opened,
	 * counted as they are sent: to ZooKeeper creates, deletes, setData and
	 * multi-operation transactions, to Redis Lua script calls, to PostgreSQL
	 * {@code INSERT}, {@code UPDATE} and {@code DELETE} statements.
	 * @return the count
	 */
	long writes();

}
