package dev.zklock.benchmarks;

import java.util.concurrent.TimeUnit;

import org.redisson.Redisson;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

/**
 * Redisson on one Redis server, as a user takes its locks: {@code getLock(name)} (or
 * {@code getFencedLock(name)}) for each acquisition, {@code tryLock(waitTime)} (or
 * {@code tryLockAndGetToken(waitTime)}, whose token increases on every acquisition)
 * without a lease, so that Redisson's watchdog renews the lock while its JVM runs, then
 * {@code unlock()}. Everything at Redisson's defaults: a lock expires 30 s after its JVM
 * stops renewing it ({@code lockWatchdogTimeout}), a waiting thread waits for the release
 * on a Pub/Sub channel. The lock names are the keys under the variant's root path.
 */
final class RedissonDriver implements LockDriver {

	private final RedisWrites writes = new RedisWrites();

	private final RedissonClient client;

	private final String rootPath;

	private final boolean fenced;

	private RedissonDriver(String address, String rootPath, boolean fenced) {
		Config config = new Config();
		config.useSingleServer().setAddress("redis://" + address);
		config.setNettyHook(this.writes);
		this.client = Redisson.create(config);
		this.rootPath = rootPath;
		this.fenced = fenced;
	}

	/**
	 * Redisson's {@code RLock}.
	 * @param address the Redis server's {@code host:port}
	 * @param rootPath the prefix of the lock names
	 * @return the connected driver
	 */
	static RedissonDriver lock(String address, String rootPath) {
		return new RedissonDriver(address, rootPath, false);
	}

	/**
	 * Redisson's {@code RFencedLock}.
	 * @param address the Redis server's {@code host:port}
	 * @param rootPath the prefix of the lock names
	 * @return the connected driver
	 */
	static RedissonDriver fencedLock(String address, String rootPath) {
		return new RedissonDriver(address, rootPath, true);
	}

	@Override
	public void withLock(String key, Runnable work) throws Exception {
		String name = this.rootPath + "/" + key;
		RLock lock = this.fenced ? this.client.getFencedLock(name) : this.client.getLock(name);
		if (!acquire(lock)) {
			throw new IllegalStateException("Redisson did not acquire '" + name + "' within " + WAIT_TIME);
		}
		try {
			work.run();
		}
		finally {
			lock.unlock();
		}
	}

	private boolean acquire(RLock lock) throws InterruptedException {
		if (lock instanceof RFencedLock fencedLock) {
			return fencedLock.tryLockAndGetToken(WAIT_TIME.toMillis(), TimeUnit.MILLISECONDS) != null;
		}
		return lock.tryLock(WAIT_TIME.toMillis(), TimeUnit.MILLISECONDS);
	}

	@Override
	public long writes() {
		return this.writes.count();
	}

	@Override
	public void close() {
		this.client.shutdown();
	}

}
