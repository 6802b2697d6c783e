package dev.zklock.autoconfigure;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;

import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;

import org.springframework.beans.factory.SmartInitializingSingleton;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Waits at start-up, once every singleton exists, for the lock clients to reach
 * ZooKeeper, as {@code distributed-lock.startup.*} asks: not at all by default, since
 * locking works as soon as ZooKeeper is reachable and fails clearly until then. The
 * clients are those of every session of the lock registry
 * ({@code distributed-lock.zookeeper.sessions}), all waited for within the one connection
 * wait. Once they are connected, it checks the lock root (see
 * {@link ZooKeeperLockRegistry#checkRoot()}), so that a root that a stranger made fails
 * start-up; without a connection, the first lock checks it.
 */
final class StartupConnectionCheck implements SmartInitializingSingleton {

	private static final Log logger = LogFactory.getLog(StartupConnectionCheck.class);

	private final List<CuratorFramework> clients;

	private final ZooKeeperLockRegistry registry;

	private final Duration connectionWait;

	private final boolean failWithoutConnection;

	StartupConnectionCheck(List<CuratorFramework> clients, ZooKeeperLockRegistry registry,
			DistributedLockProperties.Startup startup) {
		if (startup.getConnectionWait().isNegative()) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.startup.connection-wait",
					startup.getConnectionWait(), "It must not be negative.");
		}
		if (startup.isFailWithoutConnection() && startup.getConnectionWait().isZero()) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.startup.fail-without-connection",
					true, "Failing without a connection needs a positive distributed-lock.startup.connection-wait.");
		}
		this.clients = List.copyOf(clients);
		this.registry = registry;
		this.connectionWait = startup.getConnectionWait();
		this.failWithoutConnection = startup.isFailWithoutConnection();
	}

	@Override
	public void afterSingletonsInstantiated() {
		CuratorFramework unconnected = firstUnconnected();
		if (unconnected == null) {
			this.registry.checkRoot();
			return;
		}
		if (this.connectionWait.isZero()) {
			return;
		}
		// Curator's wait takes an int of milliseconds: about 24 days at most
		long wait = TimeUnit.MILLISECONDS.toNanos(Math.min(Integer.MAX_VALUE, millis(this.connectionWait)));
		unconnected = connectedWithin(System.nanoTime() + wait);
		if (unconnected == null) {
			this.registry.checkRoot();
			return;
		}
		String connectString = unconnected.getZookeeperClient().getCurrentConnectionString();
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

	/** The first client not connected now, or {@code null} if every one is. */
	private @Nullable CuratorFramework firstUnconnected() {
		for (CuratorFramework client : this.clients) {
			if (!client.getZookeeperClient().isConnected()) {
				return client;
			}
		}
		return null;
	}

	/**
	 * Waits until the deadline for every client to connect.
	 * @return the first client not connected by then, or {@code null} if every one is
	 */
	private @Nullable CuratorFramework connectedWithin(long deadline) {
		for (CuratorFramework client : this.clients) {
			long left = Math.max(0, deadline - System.nanoTime());
			try {
				if (!client.blockUntilConnected((int) TimeUnit.NANOSECONDS.toMillis(left), TimeUnit.MILLISECONDS)) {
					return client;
				}
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return client;
			}
		}
		return null;
	}

	/**
	 * The duration in milliseconds, {@link Long#MAX_VALUE} for one too long to count in
	 * milliseconds.
	 */
	private static long millis(Duration duration) {
		return (duration.compareTo(Duration.ofMillis(Long.MAX_VALUE)) > 0) ? Long.MAX_VALUE : duration.toMillis();
	}

}
