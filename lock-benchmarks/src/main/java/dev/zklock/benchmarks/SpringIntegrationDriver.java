package dev.zklock.benchmarks;

import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

/**
 * Spring Integration's {@link ZookeeperLockRegistry} through its own template method,
 * {@code executeLocked(key, waitTime, work)}: a cached {@code InterProcessMutex} per key,
 * acquired with {@code tryLock(waitTime)}, which first checks the connection with a
 * {@code checkExists} on the registry's executor.
 */
final class SpringIntegrationDriver extends CuratorClientDriver {

	private final ZookeeperLockRegistry registry;

	SpringIntegrationDriver(String connectString, String rootPath) {
		super(connectString, rootPath);
		this.registry = new ZookeeperLockRegistry(this.client, rootPath);
	}

	@Override
	public void withLock(String key, Runnable work) throws Exception {
		this.registry.executeLocked(key, WAIT_TIME, work::run);
	}

	@Override
	public void close() {
		this.registry.destroy();
		super.close();
	}

}
