package dev.zklock.benchmarks;

import java.util.concurrent.TimeUnit;

import org.apache.curator.framework.recipes.locks.InterProcessMutex;

/**
 * Raw Curator: an {@link InterProcessMutex} on {@code root/key} for each acquisition, as
 * an application without a lock registry would use it. A mutex is cheap to create and
 * retains nothing once released, so this is the baseline of both speed and memory.
 */
final class CuratorDriver extends CuratorClientDriver {

	CuratorDriver(String connectString, String rootPath) {
		super(connectString, rootPath);
	}

	@Override
	public void withLock(String key, Runnable work) throws Exception {
		InterProcessMutex mutex = new InterProcessMutex(this.client, keyPath(key));
		if (!mutex.acquire(WAIT_TIME.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException("Curator did not acquire '" + key + "' within " + WAIT_TIME);
		}
		try {
			work.run();
		}
		finally {
			mutex.release();
		}
	}

}
