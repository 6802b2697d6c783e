package dev.zklock.autoconfigure.zookeeper;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

/**
 * An in-process ZooKeeper server for development.
 */
public class EmbeddedZooKeeperProperties {

	/**
	 * Whether to start an in-process ZooKeeper server and connect to it, ignoring the
	 * connect string. For development only: it is a single server without replication.
	 */
	private boolean enabled;

	/**
	 * Port on 127.0.0.1 that the embedded server listens on; 0 picks a free port.
	 */
	private int port = 2181;

	/**
	 * Directory of the embedded server's data, kept across restarts; a temporary
	 * directory, deleted on shutdown, when not set.
	 */
	private @Nullable Path dataDirectory;

	/**
	 * Whether to start an in-process ZooKeeper server and connect to it
	 * ({@code distributed-lock.zookeeper.embedded.enabled}).
	 * @return whether the embedded server is on
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets whether to start an in-process ZooKeeper server and connect to it
	 * ({@code distributed-lock.zookeeper.embedded.enabled}).
	 * @param enabled whether the embedded server is on
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * The port on 127.0.0.1 that the embedded server listens on
	 * ({@code distributed-lock.zookeeper.embedded.port}).
	 * @return the port
	 */
	public int getPort() {
		return this.port;
	}

	/**
	 * Sets the port on 127.0.0.1 that the embedded server listens on
	 * ({@code distributed-lock.zookeeper.embedded.port}).
	 * @param port the port
	 */
	public void setPort(int port) {
		this.port = port;
	}

	/**
	 * The directory of the embedded server's data
	 * ({@code distributed-lock.zookeeper.embedded.data-directory}).
	 * @return the data directory, or {@code null} for a temporary one
	 */
	public @Nullable Path getDataDirectory() {
		return this.dataDirectory;
	}

	/**
	 * Sets the directory of the embedded server's data
	 * ({@code distributed-lock.zookeeper.embedded.data-directory}).
	 * @param dataDirectory the data directory, or {@code null} for a temporary one
	 */
	public void setDataDirectory(@Nullable Path dataDirectory) {
		this.dataDirectory = dataDirectory;
	}

}
