package dev.zklock.autoconfigure.zookeeper;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Properties;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.jspecify.annotations.Nullable;

import org.springframework.util.FileSystemUtils;

/**
 * A single ZooKeeper server running in this process on 127.0.0.1, for development. It
 * never exits the JVM: a server failure is only logged.
 */
public final class EmbeddedZooKeeperServer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(EmbeddedZooKeeperServer.class);

	private static final long START_TIMEOUT_MILLIS = 30_000;

	private final ZooKeeperServerEmbedded server;

	private final @Nullable Path temporaryDirectory;

	private final String connectString;

	/**
	 * Starts a server.
	 * @param port the client port on 127.0.0.1, or 0 for a free port
	 * @param dataDirectory the directory of the server's data, or {@code null} for a
	 * temporary directory that is deleted on {@link #close()}
	 * @throws Exception if the server could not start
	 */
	public EmbeddedZooKeeperServer(int port, @Nullable Path dataDirectory) throws Exception {
		this.temporaryDirectory = (dataDirectory != null) ? null : Files.createTempDirectory("zklock-zookeeper-");
		Path baseDirectory = (dataDirectory != null) ? dataDirectory : this.temporaryDirectory;
		Files.createDirectories(baseDirectory);
		Properties configuration = new Properties();
		configuration.setProperty("clientPort", Integer.toString(port));
		configuration.setProperty("clientPortAddress", "127.0.0.1");
		configuration.setProperty("dataDir", baseDirectory.resolve("data").toAbsolutePath().toString());
		configuration.setProperty("tickTime", "2000");
		configuration.setProperty("admin.enableServer", "false");
		this.server = ZooKeeperServerEmbedded.builder()
			.baseDir(baseDirectory)
			.configuration(configuration)
			.exitHandler(ExitHandler.LOG_ONLY)
			.build();
		try {
			this.server.start(START_TIMEOUT_MILLIS);
			this.connectString = this.server.getConnectionString();
		}
		catch (Exception ex) {
			close();
			throw new IllegalStateException("Could not start the embedded ZooKeeper server on 127.0.0.1:" + port
					+ " (distributed-lock.zookeeper.embedded.port)", ex);
		}
		logger.warn("Started an embedded ZooKeeper server on " + this.connectString + " with data in " + baseDirectory
				+ ". It is for development only: a single unreplicated server inside the "
				+ "application. Set 'distributed-lock.zookeeper.connect-string' to a real ensemble in production.");
	}

	/**
	 * Where clients reach the server.
	 * @return the connect string, such as {@code 127.0.0.1:2181}
	 */
	public String getConnectString() {
		return this.connectString;
	}

	/**
	 * Stops the server and deletes its temporary data directory, if it has one.
	 */
	@Override
	public void close() {
		this.server.close();
		if (this.temporaryDirectory != null) {
			try {
				FileSystemUtils.deleteRecursively(this.temporaryDirectory);
			}
			catch (IOException ex) {
				logger.debug("Could not delete " + this.temporaryDirectory, ex);
			}
		}
	}

}
