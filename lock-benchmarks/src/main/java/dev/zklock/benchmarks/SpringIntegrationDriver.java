package dev.zklock.benchmarks;

import org.apache.curator.framework.CuratorFramework;

import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

/**
 * Spring Integration's {@link ZookeeperLockRegistry} through its own template method,
 * {@code executeLocked(key, waitTime, work)}: a cached {@code InterProcessMutex} per key,
 * acquired with {@code tryLock(waitTime)}, which first checks the connection with a
 * {@code checkExists} on the registry's executor.
 */
final class SpringIntegrationDriver implements LockDriver {

	private final ZooKeeperWrites writes = new ZooKeeperWrites();

	private final CuratorFramework client;

	private final ZookeeperLockRegistry registry;

	SpringIntegrationDriver(String connectString, String rootPath) {
		this.client = CuratorConnections.open(connectString, this.writes);
		this.registry = new ZookeeperLockRegistry(this.client, rootPath);
	}

	@Override
	public void withLock(String key, Runnable work) throws Exception {
		this.registry.executeLocked(key, WAIT_TIME, work::run);
	}

	@Override
	public long writes() {
		return this.writes.count();
	}

	@Override
	public void close() {
		this.registry.destroy();
		this.client.close();
	}

}
