package dev.zklock.autoconfigure;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Waits at start-up, once every singleton exists, for the lock client to reach ZooKeeper,
 * as {@code distributed-lock.startup.*} asks: not at all by default, since locking works
 * as soon as ZooKeeper is reachable and fails clearly until then. Once connected, it
 * checks the lock root (see {@link ZooKeeperLockRegistry#checkRoot()}), so that a root
 * that a stranger made fails start-up; without a connection, the first lock checks it.
 */
final class StartupConnectionCheck implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(StartupConnectionCheck.class);

	private final CuratorFramework client;

	private final ZooKeeperLockRegistry registry;

	private final Duration connectionWait;

	private final boolean failWithoutConnection;

	StartupConnectionCheck(CuratorFramework client, ZooKeeperLockRegistry registry,
			DistributedLockProperties.Startup startup) {
		if (startup.getConnectionWait().isNegative()) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.startup.connection-wait",
					startup.getConnectionWait(), "It must not be negative.");
		}
		if (startup.isFailWithoutConnection() && startup.getConnectionWait().isZero()) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.startup.fail-without-connection",
					true, "Failing without a connection needs a positive distributed-lock.startup.connection-wait.");
		}
		this.client = client;
		this.registry = registry;
		this.connectionWait = startup.getConnectionWait();
		this.failWithoutConnection = startup.isFailWithoutConnection();
	}

	@Override
	public void afterSingletonsInstantiated() {
		boolean waits = !this.connectionWait.isZero();
		if (this.client.getZookeeperClient().isConnected() || (waits && connected())) {
			this.registry.checkRoot();
			return;
		}
		if (!waits) {
			return;
		}
		String connectString = this.client.getZookeeperClient().getCurrentConnectionString();
		if (this.failWithoutConnection) {
			throw new IllegalStateException("No connection to ZooKeeper (" + connectString + ") within "
					+ millis(this.connectionWait) + "ms at start-up, and distributed-lock.startup."
					+ "fail-without-connection is true: check that ZooKeeper runs and that "
					+ "distributed-lock.zookeeper.connect-string names it");
		}
		logger.warn("No connection to ZooKeeper (" + connectString + ") within " + millis(this.connectionWait)
				+ "ms at start-up; starting anyway. Locks fail with LockAcquisitionException until ZooKeeper "
				+ "is reachable, and work from then on");
	}

	/**
	 * The duration in milliseconds, {@link Long#MAX_VALUE} for one too long to count in
	 * milliseconds.
	 */
	private static long millis(Duration duration) {
		return (duration.compareTo(Duration.ofMillis(Long.MAX_VALUE)) > 0) ? Long.MAX_VALUE : duration.toMillis();
	}

	private boolean connected() {
		try {
			return this.client.blockUntilConnected((int) Math.min(Integer.MAX_VALUE, millis(this.connectionWait)),
					TimeUnit.MILLISECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			return false;
		}
	}

}
