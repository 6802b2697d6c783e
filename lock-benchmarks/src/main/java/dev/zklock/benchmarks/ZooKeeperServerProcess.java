package dev.zklock.benchmarks;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
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
	 * @param settings further lines of its {@code zoo.cfg}, {@code key=value}
	 * @return the started server
	 */
	static ZooKeeperServerProcess start(Path directory, List<String> settings) {
		try {
			Path data = Files.createDirectories(directory.resolve("data"));
			int port = freePort();
			Path config = directory.resolve("zoo.cfg");
			List<String> lines = new ArrayList<>(List.of("tickTime=2000", "dataDir=" + data,
					"clientPortAddress=127.0.0.1", "clientPort=" + port, "maxClientCnxns=0"));
			lines.addAll(settings);
			Files.write(config, lines);
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

	/**
	 * Waits until the server accepts connections.
	 * @param timeout how long to wait
	 * @throws InterruptedException if interrupted while waiting
	 * @throws IllegalStateException if the server exits or does not serve in time
	 */
	void awaitServing(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (!this.process.isAlive()) {
				throw new IllegalStateException("The ZooKeeper server exited; see " + this.log);
			}
			try (Socket socket = new Socket()) {
				socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 200);
				return;
			}
			catch (IOException ex) {
				Thread.sleep(100);
			}
		}
		throw new IllegalStateException("The ZooKeeper server did not serve within " + timeout + "; see " + this.log);
	}

	String connectString() {
		return "127.0.0.1:" + this.port;
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
