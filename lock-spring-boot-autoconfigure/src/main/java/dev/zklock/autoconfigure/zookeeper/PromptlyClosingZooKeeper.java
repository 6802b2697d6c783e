package dev.zklock.autoconfigure.zookeeper;

import java.io.IOException;
import java.time.Duration;

import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.client.HostProvider;
import org.apache.zookeeper.client.ZKClientConfig;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A ZooKeeper handle whose {@link #close()} waits at most a given time for ZooKeeper to
 * end the session. ZooKeeper's own close asks the server to end the session, which
 * deletes the session's lock nodes at once, and waits for the answer as long as the
 * client keeps the connection: with a server that is down or frozen, until the client
 * gives the connection up, two thirds of the session timeout for an open connection that
 * stops answering and the session timeout divided by the number of servers for one that
 * is being opened. That wait held up the shutdown of an application for as long.
 * <p>
 * Here the close runs on a daemon thread of its own and the caller waits for it at most
 * the close timeout. A close that ZooKeeper does not answer in time is left to end on
 * that thread (or with the JVM); the session's nodes then go when the session expires.
 */
final class PromptlyClosingZooKeeper extends ZooKeeper {

	private static final Logger logger = LoggerFactory.getLogger(PromptlyClosingZooKeeper.class);

	private final Duration closeTimeout;

	PromptlyClosingZooKeeper(String connectString, int sessionTimeout, Watcher watcher, boolean canBeReadOnly,
			HostProvider hostProvider, @Nullable ZKClientConfig clientConfig, Duration closeTimeout)
			throws IOException {
		super(connectString, sessionTimeout, watcher, canBeReadOnly, hostProvider, clientConfig);
		this.closeTimeout = closeTimeout;
	}

	/**
	 * Ends the session and closes the handle, waiting at most the close timeout for
	 * ZooKeeper to confirm the end of the session.
	 * @throws InterruptedException if interrupted while waiting
	 */
	@Override
	public void close() throws InterruptedException {
		String session = "0x" + Long.toHexString(getSessionId());
		Thread closing = new Thread(this::closeAndWaitForTheServer, "zklock-close-session-" + session);
		closing.setDaemon(true);
		closing.start();
		closing.join(this.closeTimeout.toMillis());
		if (closing.isAlive()) {
			logger.warn("ZooKeeper did not confirm the end of session {} within {}ms "
					+ "(distributed-lock.zookeeper.close-timeout); closed without it: the session's lock nodes "
					+ "stay until it expires", session, this.closeTimeout.toMillis());
		}
	}

	private void closeAndWaitForTheServer() {
		try {
			super.close();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
