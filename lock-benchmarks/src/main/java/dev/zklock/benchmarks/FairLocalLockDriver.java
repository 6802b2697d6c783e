package dev.zklock.benchmarks;

import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ConcurrentMap;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * The limit of the hot-key scenarios, not distributed: a fair {@link ReentrantLock} per
 * key inside the worker JVM, taken the way the other drivers take theirs, with the same
 * wait time. It excludes the threads of its own JVM only, and writes nothing to
 * ZooKeeper.
 */
final class FairLocalLockDriver implements LockDriver {

	private final ConcurrentMap<String, ReentrantLock> locks = new ConcurrentHashMap<>();

	@Override
	public void withLock(String key, Runnable work) throws InterruptedException {
		ReentrantLock lock = this.locks.computeIfAbsent(key, (name) -> new ReentrantLock(true));
		if (!lock.tryLock(WAIT_TIME.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException("The fair lock of '" + key + "' was not free within " + WAIT_TIME);
		}
		try {
			work.run();
		}
		finally {
			lock.unlock();
		}
	}

	@Override
	public long writes() {
		return 0;
	}

	@Override
	public void close() {
	}

}
