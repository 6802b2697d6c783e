package dev.zklock.benchmarks;

import dev.zklock.DistributedLock;

/**
 * The bean whose annotated method the {@code ours-annotation} variant calls: the lock is
 * taken by zklock's interceptor, exactly as in an application.
 */
public class AnnotatedWork {

	/**
	 * Runs the work under the lock of the key.
	 * @param key the lock key
	 * @param work the critical section
	 */
	@DistributedLock(key = "#key", waitTime = "60s")
	public void run(String key, Runnable work) {
		work.run();
	}

}
