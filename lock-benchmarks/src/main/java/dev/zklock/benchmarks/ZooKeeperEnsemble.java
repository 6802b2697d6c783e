package dev.zklock.benchmarks;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.FileVisitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.SimpleFileVisitor;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.IntStream;

import org.jspecify.annotations.Nullable;

/**
 * The ZooKeeper servers of a benchmark run, each in its own JVM on 127.0.0.1 with ports
 * of its own, in {@code server-N} directories: one standalone server, or an ensemble that
 * elects a leader. Every client of the run connects to the same server, a follower in an
 * ensemble, so that every variant's writes take the same path (follower, leader, quorum,
 * and back): left to choose among all servers, each client would pick one at random, and
 * the ratios of one run would compare clients of the leader with clients of a follower.
 */
final class ZooKeeperEnsemble implements AutoCloseable {

	private static final int ATTEMPTS = 3;

	private final List<ZooKeeperServerProcess> servers;

	private @Nullable ZooKeeperServerProcess clientsServer;

	private ZooKeeperEnsemble(List<ZooKeeperServerProcess> servers) {
		this.servers = servers;
	}

	/**
	 * Starts the servers and waits until they serve. A port found free can be taken by
	 * another process before a server binds it: the servers then start again, on other
	 * ports, up to three times.
	 * @param directory the directory of the servers' own directories
	 * @param size the number of servers: 1 for a standalone server
	 * @param settings further lines of every server's {@code zoo.cfg}
	 * @param timeout how long to wait for them to serve, each time
	 * @return the serving servers
	 * @throws IOException if no free port can be found
	 * @throws InterruptedException if interrupted while waiting
	 * @throws IllegalStateException if a server exits or they do not serve in time
	 */
	static ZooKeeperEnsemble startServing(Path directory, int size, List<String> settings, Duration timeout)
			throws IOException, InterruptedException {
		for (int attempt = 1;; attempt++) {
			ZooKeeperEnsemble servers = start(directory, size, settings);
			try {
				servers.awaitServing(timeout);
				return servers;
			}
			catch (IllegalStateException ex) {
				servers.close();
				if (attempt == ATTEMPTS || !servers.lostAPort()) {
					throw ex;
				}
				System.out.println("A port was taken before ZooKeeper bound it; starting again on other ports");
			}
		}
	}

	private boolean lostAPort() throws IOException {
		for (ZooKeeperServerProcess server : this.servers) {
			if (Files.exists(server.log()) && Files.readString(server.log()).contains("BindException")) {
				return true;
			}
		}
		return false;
	}

	/**
	 * Starts the servers; clients connect once {@link #awaitServing(Duration)} returns.
	 * @param directory the directory of the servers' own directories
	 * @param size the number of servers: 1 for a standalone server
	 * @param settings further lines of every server's {@code zoo.cfg}
	 * @return the started servers
	 * @throws IOException if no free port can be found
	 * @throws InterruptedException if interrupted while stopping the servers of a failed
	 * start
	 */
	private static ZooKeeperEnsemble start(Path directory, int size, List<String> settings)
			throws IOException, InterruptedException {
		List<Integer> clientPorts = new ArrayList<>();
		List<String> ensemble = new ArrayList<>();
		for (int id = 1; id <= size; id++) {
			clientPorts.add(freePort());
			if (size > 1) {
				ensemble.add("server." + id + "=127.0.0.1:" + freePort() + ":" + freePort());
			}
		}
		List<ZooKeeperServerProcess> servers = new ArrayList<>();
		ZooKeeperEnsemble started = new ZooKeeperEnsemble(servers);
		try {
			for (int id = 1; id <= size; id++) {
				servers.add(ZooKeeperServerProcess.start(directory.resolve("server-" + id), id, clientPorts.get(id - 1),
						ensemble, settings));
			}
			return started;
		}
		catch (RuntimeException ex) {
			started.close();
			throw ex;
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	/**
	 * Waits until every server serves clients, one of them as the leader of an ensemble,
	 * and chooses the server of the clients.
	 * @param timeout how long to wait
	 * @throws InterruptedException if interrupted while waiting
	 * @throws IllegalStateException if a server exits or they do not serve in time
	 */
	private void awaitServing(Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			List<@Nullable String> modes = this.servers.stream().map(ZooKeeperServerProcess::mode).toList();
			if (modes.stream().allMatch(Objects::nonNull)
					&& (modes.contains("leader") || modes.contains("standalone"))) {
				this.clientsServer = this.servers.get(IntStream.range(0, modes.size())
					.filter((i) -> !"leader".equals(modes.get(i)))
					.findFirst()
					.orElse(0));
				return;
			}
			Thread.sleep(100);
		}
		throw new IllegalStateException("ZooKeeper did not serve within " + timeout + "; see "
				+ this.servers.stream().map((server) -> server.log().toString()).collect(Collectors.joining(", ")));
	}

	/**
	 * The connect string of every client of the run: the one server they all use.
	 * @return the connect string
	 * @throws IllegalStateException before the servers serve
	 */
	String connectString() {
		if (this.clientsServer == null) {
			throw new IllegalStateException("The servers do not serve yet");
		}
		return this.clientsServer.address();
	}

	/**
	 * What a run's servers are, for its report.
	 * @param size the number of servers
	 * @return the summary
	 */
	static String summary(int size) {
		return (size == 1) ? "one ZooKeeper server"
				: "a ZooKeeper ensemble of " + size + " servers, every client on the same follower";
	}

	/**
	 * The servers, their roles and where the clients connect, for the console.
	 * @return the description
	 */
	String describe() {
		if (this.servers.size() == 1) {
			return "ZooKeeper server on " + connectString();
		}
		return "ZooKeeper ensemble of " + this.servers.size() + " servers ("
				+ this.servers.stream()
					.map((server) -> server.address() + " " + server.mode())
					.collect(Collectors.joining(", "))
				+ "); every client connects to " + connectString();
	}

	/**
	 * Stops the servers and deletes their data; their configuration and logs stay.
	 * @throws IOException if the data cannot be deleted
	 * @throws InterruptedException if interrupted while waiting for a server to stop
	 */
	@Override
	public void close() throws IOException, InterruptedException {
		for (ZooKeeperServerProcess server : this.servers) {
			server.stop();
		}
		for (ZooKeeperServerProcess server : this.servers) {
			deleteRecursively(server.dataDirectory());
		}
	}

	private static void deleteRecursively(Path directory) throws IOException {
		if (!Files.exists(directory)) {
			return;
		}
		Files.walkFileTree(directory, new SimpleFileVisitor<>() {

			@Override
			public FileVisitResult visitFile(Path file, BasicFileAttributes attributes) throws IOException {
				Files.delete(file);
				return FileVisitResult.CONTINUE;
			}

			@Override
			public FileVisitResult postVisitDirectory(Path dir, IOException ex) throws IOException {
				Files.delete(dir);
				return FileVisitResult.CONTINUE;
			}

		});
	}

}
