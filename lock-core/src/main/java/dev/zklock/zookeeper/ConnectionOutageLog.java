package dev.zklock.zookeeper;

import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;

import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;

/**
 * Tells the application's log about outages of ZooKeeper in a few lines: one when the
 * client has not reached ZooKeeper within its connection timeout since it started, one
 * when an established connection is suspended, one when the session ends, and one when
 * the connection is back. ZooKeeper's own client logs every reconnection attempt, with a
 * stack trace, every second or two; these lines are what an operator needs instead.
 */
final class ConnectionOutageLog {

	private static final Logger logger = LoggerFactory.getLogger(ConnectionOutageLog.class);

	private final CuratorFramework client;

	private final String heldLocksDuringSuspension;

	private final ScheduledFuture<?> firstConnectionCheck;

	/**
	 * Whether a session was ever established; guarded by this.
	 */
	private boolean connectedOnce;

	/**
	 * Whether the current outage was reported; guarded by this.
	 */
	private boolean outageReported;

	/**
	 * Starts watching for the first connection.
	 * @param client the client whose connection is reported
	 * @param locksLostWhenSuspended whether held locks count as lost, rather than only
	 * uncertain, while the connection is suspended
	 * @param scheduler runs the check for a first connection that does not come
	 */
	ConnectionOutageLog(CuratorFramework client, boolean locksLostWhenSuspended, ScheduledExecutorService scheduler) {
		this.client = client;
		this.heldLocksDuringSuspension = locksLostWhenSuspended ? "lost" : "uncertain";
		this.connectedOnce = client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs() > 0;
		this.firstConnectionCheck = scheduler.schedule(this::reportMissingFirstConnection,
				client.getZookeeperClient().getConnectionTimeoutMs(), TimeUnit.MILLISECONDS);
	}

	/**
	 * Logs what a change of the connection's state means for locking, if anything.
	 * @param state the new state
	 */
	synchronized void stateChanged(ConnectionState state) {
		switch (state) {
			case SUSPENDED, READ_ONLY -> {
				if (this.connectedOnce) {
					reportOutage("The connection to ZooKeeper ({}) is suspended; locks cannot be taken until it is "
							+ "back, and held locks are {}", connectString(), this.heldLocksDuringSuspension);
				}
				else {
					reportMissingFirstConnection();
				}
			}
			case LOST -> {
				this.outageReported = true;
				logger.warn("The ZooKeeper session of this client ended; its locks are lost");
			}
			case CONNECTED, RECONNECTED -> {
				if (this.outageReported) {
					String again = this.connectedOnce ? " again" : "";
					logger.info("Connected to ZooKeeper ({}){}; locking works{}", connectString(), again, again);
				}
				this.connectedOnce = true;
				this.outageReported = false;
				this.firstConnectionCheck.cancel(false);
			}
		}
	}

	private synchronized void reportMissingFirstConnection() {
		if (!this.connectedOnce && this.client.getState() == CuratorFrameworkState.STARTED
				&& !this.client.getZookeeperClient().isConnected()) {
			reportOutage(
					"No connection to ZooKeeper ({}) within {}ms of starting; locks fail with "
							+ "LockAcquisitionException until ZooKeeper is reachable",
					connectString(), this.client.getZookeeperClient().getConnectionTimeoutMs());
		}
	}

	private void reportOutage(String message, Object... arguments) {
		if (!this.outageReported) {
			this.outageReported = true;
			logger.warn(message, arguments);
		}
	}

	private String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

	void close() {
		this.firstConnectionCheck.cancel(false);
	}

}
