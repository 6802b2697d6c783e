package dev.zklock.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * The one ZooKeeper server of a benchmark run: a standalone {@code ZooKeeperServerMain}
 * in its own JVM, on 127.0.0.1 and a free port, with its data, {@code zoo.cfg} and log in
 * a directory of its own. Empty container nodes are reaped every second and without a
 * rate limit, so that the node count after a many-keys run shows what the libraries leave
 * behind rather than the reaper's pace.
 */
final class ZooKeeperServerProcess implements AutoCloseable {

	private static final List<String> JVM_OPTIONS = List.of("-Xms256m", "-Xmx1g",
			"-Dznode.container.checkIntervalMs=1000", "-Dznode.container.maxPerMinute=100000000",
			"-Dzookeeper.admin.enableServer=false");

	private final Process process;

	private final int port;

	private final Path log;

	private ZooKeeperServerProcess(Process process, int port, Path log) {
		this.process = process;
		this.port = port;
		this.log = log;
	}

	/**
	 * Starts a server; clients connect to {@link #connectString()} as soon as it serves.
	 * @param directory the server's directory, created if missing
	 * @return the started server
	 */
	static ZooKeeperServerProcess start(Path directory) {
		try {
			Path data = Files.createDirectories(directory.resolve("data"));
			int port = freePort();
			Path config = directory.resolve("zoo.cfg");
			Files.writeString(config,
					String.join(System.lineSeparator(), "tickTime=2000", "dataDir=" + data,
							"clientPortAddress=127.0.0.1", "clientPort=" + port, "maxClientCnxns=0",
							"4lw.commands.whitelist=srvr", ""));
			Path log = directory.resolve("zookeeper.log");
			Process process = new ProcessBuilder(JavaCommand.of(JVM_OPTIONS,
					"org.apache.zookeeper.server.ZooKeeperServerMain", List.of(config.toString())))
				.redirectErrorStream(true)
				.redirectOutput(log.toFile())
				.start();
			return new ZooKeeperServerProcess(process, port, log);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start the ZooKeeper server in " + directory, ex);
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	String connectString() {
		return "127.0.0.1:" + this.port;
	}

	Path log() {
		return this.log;
	}

	boolean isRunning() {
		return this.process.isAlive();
	}

	/**
	 * Stops the server, killing it if it does not stop within ten seconds.
	 */
	@Override
	public void close() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
	}

}
