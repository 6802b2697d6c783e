package dev.zklock.test;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

import org.springframework.beans.factory.DisposableBean;
import org.springframework.util.FileSystemUtils;

/**
 * Runs one ZooKeeper server in this process on 127.0.0.1 and a free port, with its data
 * in a temporary directory that is deleted when the server stops.
 */
final class InProcessZooKeeperServer implements DisposableBean {

	private static final Logger logger = LoggerFactory.getLogger(InProcessZooKeeperServer.class);

	private static final long START_TIMEOUT_MILLIS = 30_000;

	/**
	 * The system property that ZooKeeper reads its limit of connections from; without
	 * one, it warns at every start that there is no limit.
	 */
	private static final String MAX_CONNECTIONS_PROPERTY = "zookeeper.maxCnxns";

	private final Path directory;

	private final ZooKeeperServerEmbedded server;

	private final String connectString;

	/**
	 * Starts a server.
	 * @throws IllegalStateException if the server could not start
	 */
	InProcessZooKeeperServer() {
		try {
			this.directory = Files.createTempDirectory("zklock-test-zookeeper-");
		}
		catch (IOException ex) {
			throw new IllegalStateException("Could not create a data directory for the test ZooKeeper server", ex);
		}
		Properties configuration = new Properties();
		configuration.setProperty("clientPort", "0");
		configuration.setProperty("clientPortAddress", "127.0.0.1");
		configuration.setProperty("dataDir", this.directory.resolve("data").toAbsolutePath().toString());
		configuration.setProperty("admin.enableServer", "false");
		if (System.getProperty(MAX_CONNECTIONS_PROPERTY) == null) {
			configuration.setProperty("maxCnxns", "1000");
		}
		try {
			this.server = ZooKeeperServerEmbedded.builder()
				.baseDir(this.directory)
				.configuration(configuration)
				.exitHandler(ExitHandler.LOG_ONLY)
				.build();
			this.server.start(START_TIMEOUT_MILLIS);
			this.connectString = this.server.getConnectionString();
		}
		catch (Exception ex) {
			deleteDirectory();
			throw new IllegalStateException("Could not start the test ZooKeeper server on 127.0.0.1: " + ex, ex);
		}
		logger.info("Started a test ZooKeeper server on {}", this.connectString);
	}

	/**
	 * Where clients reach the server.
	 * @return the connect string, such as {@code 127.0.0.1:41234}
	 */
	String connectString() {
		return this.connectString;
	}

	/**
	 * Stops the server and deletes its data.
	 */
	@Override
	public void destroy() {
		this.server.close();
		deleteDirectory();
		logger.info("Stopped the test ZooKeeper server on {}", this.connectString);
	}

	private void deleteDirectory() {
		try {
			FileSystemUtils.deleteRecursively(this.directory);
		}
		catch (IOException ex) {
			logger.debug("Could not delete {}: {}", this.directory, ex.toString());
		}
	}

}
