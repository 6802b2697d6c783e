package dev.zklock.health;

import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.zookeeper.ZooKeeper;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.health.contributor.AbstractHealthIndicator;
import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.HealthIndicator;
import org.springframework.boot.health.contributor.Status;

/**
 * {@link HealthIndicator} for the ZooKeeper connection of a {@link CuratorFramework}. It
 * is {@code UP} while the client is connected and {@code DOWN} while Curator reports the
 * connection suspended or lost, the client is not started, or it is connected read-only
 * (where no lock can be taken). It reads the client's connection state and never makes a
 * request to ZooKeeper, so a health check cannot hang on an unreachable ensemble.
 * <p>
 * Details: {@code connectString}, {@code state} (Curator's connection state, such as
 * {@code CONNECTED}, {@code SUSPENDED} or {@code LOST}; {@code NOT_CONNECTED} before the
 * first connection; the client's own state, such as {@code STOPPED}, when it is not
 * started) and, while connected, {@code sessionId} in hexadecimal.
 */
public class ZooKeeperHealthIndicator extends AbstractHealthIndicator {

	private final CuratorFramework client;

	private volatile @Nullable ConnectionState connectionState;

	/**
	 * Creates an indicator that follows the connection state of the given client from now
	 * on.
	 * @param client the client
	 */
	public ZooKeeperHealthIndicator(CuratorFramework client) {
		super("ZooKeeper health check failed");
		this.client = client;
		client.getConnectionStateListenable().addListener((source, state) -> this.connectionState = state);
	}

	@Override
	protected void doHealthCheck(Health.Builder builder) throws Exception {
		builder.withDetail("connectString", this.client.getZookeeperClient().getCurrentConnectionString());
		CuratorFrameworkState clientState = this.client.getState();
		if (clientState != CuratorFrameworkState.STARTED) {
			builder.down().withDetail("state", clientState.name());
			return;
		}
		boolean connected = this.client.getZookeeperClient().isConnected();
		ConnectionState reported = this.connectionState;
		builder.withDetail("state", stateName(reported, connected));
		if (!connected || (reported != null && !reported.isConnected())) {
			builder.down();
			return;
		}
		ZooKeeper zooKeeper = this.client.getZookeeperClient().getZooKeeper();
		builder.withDetail("sessionId", "0x" + Long.toHexString(zooKeeper.getSessionId()));
		boolean readOnly = reported == ConnectionState.READ_ONLY
				|| zooKeeper.getState() == ZooKeeper.States.CONNECTEDREADONLY;
		builder.status(readOnly ? Status.DOWN : Status.UP);
	}

	/**
	 * The state that Curator last reported or, when it reported none since this indicator
	 * was created, what the connection is now.
	 */
	private static String stateName(@Nullable ConnectionState reported, boolean connected) {
		if (reported != null) {
			return reported.name();
		}
		return (connected) ? ConnectionState.CONNECTED.name() : "NOT_CONNECTED";
	}

}
