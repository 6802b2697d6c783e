package dev.zklock.autoconfigure.zookeeper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Properties;

import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.apache.zookeeper.server.embedded.ExitHandler;
import org.apache.zookeeper.server.embedded.ZooKeeperServerEmbedded;
import org.jspecify.annotations.Nullable;

import org.springframework.util.ClassUtils;
import org.springframework.util.FileSystemUtils;

/**
 * A single ZooKeeper server running in this process on 127.0.0.1, for development. It
 * never exits the JVM: a server failure is only logged.
 */
public final class EmbeddedZooKeeperServer implements AutoCloseable {

	private static final Log logger = LogFactory.getLog(EmbeddedZooKeeperServer.class);

	private static final long START_TIMEOUT_MILLIS = 10_000;

	/**
	 * The classes that the server needs besides ZooKeeper's own, each with the artifact
	 * that has it.
	 */
	static final Map<String, String> REQUIRED_CLASSES = Map.of("com.codahale.metrics.Counter",
			"io.dropwizard.metrics:metrics-core", "org.xerial.snappy.SnappyInputStream",
			"org.xerial.snappy:snappy-java");

	/**
	 * The system property that ZooKeeper reads its limit of connections from, for every
	 * server of the JVM; the server's {@code maxCnxns} setting only sets it.
	 */
	private static final String MAX_CONNECTIONS_PROPERTY = "zookeeper.maxCnxns";

	/**
	 * The server's limit of connections. ZooKeeper warns at every start of a server
	 * without one (0, its default, is no limit); the limit of connections from one
	 * address (60) binds first anyway on a server that only 127.0.0.1 reaches. High,
	 * since the other ZooKeeper servers of the JVM, a test's for example, get it too.
	 */
	static final int MAX_CONNECTIONS = 1000;

	/**
	 * The dependency that brings the server and the classes it needs.
	 */
	static final String DEPENDENCY = "dev.zklock:lock-embedded-zookeeper";

	private final Path workDirectory;

	private final ZooKeeperServerEmbedded server;

	private final String connectString;

	/**
	 * Starts a server.
	 * @param port the client port on 127.0.0.1, or 0 for a free port
	 * @param dataDirectory the directory of the server's data, kept across restarts, or
	 * {@code null} for a temporary directory that is deleted on {@link #close()}
	 * @throws IllegalStateException if jars that the server needs are missing from the
	 * class path (it names them all), or the port is in use
	 * @throws Exception if the server could not start
	 */
	public EmbeddedZooKeeperServer(int port, @Nullable Path dataDirectory) throws Exception {
		checkRequiredClasses();
		checkPortIsFree(port);
		this.workDirectory = Files.createTempDirectory("zklock-zookeeper-");
		Path data = (dataDirectory != null) ? dataDirectory : this.workDirectory.resolve("data");
		Files.createDirectories(data);
		Properties configuration = new Properties();
		configuration.setProperty("clientPort", Integer.toString(port));
		configuration.setProperty("clientPortAddress", "127.0.0.1");
		configuration.setProperty("dataDir", data.toAbsolutePath().toString());
		configuration.setProperty("tickTime", "2000");
		if (System.getProperty(MAX_CONNECTIONS_PROPERTY) == null) {
			configuration.setProperty("maxCnxns", Integer.toString(MAX_CONNECTIONS));
		}
		configuration.setProperty("admin.enableServer", "false");
		this.server = ZooKeeperServerEmbedded.builder()
			.baseDir(this.workDirectory)
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
		logger.warn("Started an embedded ZooKeeper server on " + this.connectString + " with data in " + data
				+ ". It is for development only: a single unreplicated server inside the application. Set "
				+ "'distributed-lock.zookeeper.connect-string' to a real ensemble in production.");
	}

	private static void checkRequiredClasses() {
		List<String> missing = REQUIRED_CLASSES.entrySet()
			.stream()
			.filter((required) -> !ClassUtils.isPresent(required.getKey(), null))
			.map(Map.Entry::getValue)
			.sorted()
			.toList();
		if (!missing.isEmpty()) {
			throw new MissingEmbeddedServerDependenciesException(missing);
		}
	}

	private static void checkPortIsFree(int port) throws IOException {
		if (port == 0) {
			return;
		}
		try (ServerSocket socket = new ServerSocket()) {
			socket.bind(new InetSocketAddress(InetAddress.getByName("127.0.0.1"), port));
		}
		catch (IOException ex) {
			throw new EmbeddedServerPortInUseException(port, ex);
		}
	}

	/**
	 * Where clients reach the server.
	 * @return the connect string, such as {@code 127.0.0.1:2181}
	 */
	public String getConnectString() {
		return this.connectString;
	}

	/**
	 * Stops the server and deletes its temporary files, and its data unless a data
	 * directory was given.
	 */
	@Override
	public void close() {
		this.server.close();
		try {
			FileSystemUtils.deleteRecursively(this.workDirectory);
		}
		catch (IOException ex) {
			logger.debug("Could not delete " + this.workDirectory, ex);
		}
	}

}
