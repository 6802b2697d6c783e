package dev.zklock.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * One ZooKeeper server in its own JVM ({@code QuorumPeerMain} on the test classpath),
 * configured by a {@code zoo.cfg} in its directory and logging to {@code server.log}
 * there. It can be stopped, killed and started again on the same data and ports.
 */
final class ZooKeeperServerProcess {

	private final int id;

	private final Path directory;

	private final int clientPort;

	private Process process;

	ZooKeeperServerProcess(int id, Path directory, int clientPort) {
		this.id = id;
		this.directory = directory;
		this.clientPort = clientPort;
	}

	int id() {
		return this.id;
	}

	int clientPort() {
		return this.clientPort;
	}

	Path directory() {
		return this.directory;
	}

	String address() {
		return "127.0.0.1:" + this.clientPort;
	}

	void start() {
		List<String> command = List.of(JavaCommand.java(), "-cp", JavaCommand.classpath(), "-Xmx128m",
				"-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
				"-Dznode.container.checkIntervalMs=1000", "org.apache.zookeeper.server.quorum.QuorumPeerMain",
				this.directory.resolve("zoo.cfg").toString());
		try {
			this.process = new ProcessBuilder(command).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(this.directory.resolve("server.log").toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	/**
	 * Kills the server at once, like {@code kill -9}.
	 */
	void kill() {
		if (this.process != null) {
			this.process.destroyForcibly();
			awaitExit();
		}
	}

	/**
	 * Stops the server with {@code SIGTERM}, killing it if it does not end in ten
	 * seconds.
	 */
	void stop() throws InterruptedException {
		if (this.process != null) {
			this.process.destroy();
			if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
				kill();
			}
		}
	}

	private void awaitExit() {
		try {
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * The server's role as its {@code srvr} command reports it.
	 * @return {@code leader}, {@code follower} or {@code standalone}, or {@code null}
	 * when the server does not serve clients (down, or without a quorum)
	 */
	String mode() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress("127.0.0.1", this.clientPort), 500);
			socket.setSoTimeout(1000);
			OutputStream output = socket.getOutputStream();
			output.write("srvr".getBytes(StandardCharsets.US_ASCII));
			output.flush();
			BufferedReader input = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
			String line;
			while ((line = input.readLine()) != null) {
				if (line.startsWith("Mode: ")) {
					return line.substring(6).trim();
				}
			}
			return null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	@Override
	public String toString() {
		return "ZooKeeper server " + this.id + " on " + address();
	}

}
