package dev.zklock.benchmarks;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * One ZooKeeper server of a benchmark run in its own JVM, on 127.0.0.1, with its data,
 * {@code zoo.cfg} and log in a directory of its own: a standalone
 * {@code ZooKeeperServerMain}, or a {@code QuorumPeerMain} of an ensemble. Empty
 * container nodes are reaped every second and without a rate limit, so that the node
 * count after a many-keys run shows what the libraries leave behind rather than the
 * reaper's pace. The {@code srvr} command is allowed, to learn the server's role.
 */
final class ZooKeeperServerProcess {

	private static final List<String> JVM_OPTIONS = List.of("-Xms256m", "-Xmx1g",
			"-Dznode.container.checkIntervalMs=1000", "-Dznode.container.maxPerMinute=100000000",
			"-Dzookeeper.admin.enableServer=false");

	private final Process process;

	private final int clientPort;

	private final Path directory;

	private ZooKeeperServerProcess(Process process, int clientPort, Path directory) {
		this.process = process;
		this.clientPort = clientPort;
		this.directory = directory;
	}

	/**
	 * Starts a server; it serves once {@link #mode()} answers.
	 * @param directory the server's directory, created if missing
	 * @param id the server's id in the ensemble
	 * @param clientPort the port for clients
	 * @param ensemble the {@code server.N=host:port:port} lines of every server of the
	 * ensemble, or none for a standalone server
	 * @param settings further lines of its {@code zoo.cfg}, {@code key=value}
	 * @return the started server
	 */
	static ZooKeeperServerProcess start(Path directory, int id, int clientPort, List<String> ensemble,
			List<String> settings) {
		try {
			Path data = Files.createDirectories(directory.resolve("data"));
			List<String> lines = new ArrayList<>(
					List.of("tickTime=2000", "dataDir=" + data.toAbsolutePath(), "clientPortAddress=127.0.0.1",
							"clientPort=" + clientPort, "maxClientCnxns=0", "4lw.commands.whitelist=srvr"));
			String mainClass = "org.apache.zookeeper.server.ZooKeeperServerMain";
			if (!ensemble.isEmpty()) {
				Files.writeString(data.resolve("myid"), Integer.toString(id));
				lines.addAll(List.of("initLimit=10", "syncLimit=5"));
				lines.addAll(ensemble);
				mainClass = "org.apache.zookeeper.server.quorum.QuorumPeerMain";
			}
			lines.addAll(settings);
			Path config = directory.resolve("zoo.cfg");
			Files.write(config, lines);
			Process process = new ProcessBuilder(
					JavaCommand.of(JVM_OPTIONS, mainClass, List.of(config.toAbsolutePath().toString())))
				.redirectErrorStream(true)
				.redirectOutput(directory.resolve("zookeeper.log").toFile())
				.start();
			return new ZooKeeperServerProcess(process, clientPort, directory);
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start the ZooKeeper server in " + directory, ex);
		}
	}

	/**
	 * The server's role, as its {@code srvr} command tells it.
	 * @return {@code standalone}, {@code leader} or {@code follower}, or {@code null}
	 * while the server does not serve clients
	 * @throws IllegalStateException if the server has exited
	 */
	@Nullable String mode() {
		if (!this.process.isAlive()) {
			throw new IllegalStateException("The ZooKeeper server on " + address() + " exited; see " + log());
		}
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.clientPort), 500);
			socket.setSoTimeout(2000);
			OutputStream output = socket.getOutputStream();
			output.write("srvr".getBytes(StandardCharsets.US_ASCII));
			output.flush();
			BufferedReader input = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
			for (String line = input.readLine(); line != null; line = input.readLine()) {
				if (line.startsWith("Mode: ")) {
					return line.substring("Mode: ".length()).trim();
				}
			}
			return null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	String address() {
		return "127.0.0.1:" + this.clientPort;
	}

	Path log() {
		return this.directory.resolve("zookeeper.log");
	}

	Path dataDirectory() {
		return this.directory.resolve("data");
	}

	/**
	 * Stops the server, killing it if it does not stop within ten seconds.
	 * @throws InterruptedException if interrupted while waiting for it to stop
	 */
	void stop() throws InterruptedException {
		this.process.destroy();
		if (!this.process.waitFor(10, TimeUnit.SECONDS)) {
			this.process.destroyForcibly();
			this.process.waitFor(10, TimeUnit.SECONDS);
		}
	}

}
