package dev.zklock.testsupport.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Objects;
import java.util.stream.Collectors;
import java.util.stream.Stream;

import dev.zklock.testsupport.process.PeerRoutes.PeerPort;
import org.jspecify.annotations.Nullable;

/**
 * ZooKeeper servers on 127.0.0.1, each in its own JVM with the caller's class path and a
 * {@code server-N} directory of its own: one standalone server
 * ({@code ZooKeeperServerMain}) or an ensemble of several ({@code QuorumPeerMain}) that
 * elect a leader. Every server keeps its data and ports for the life of the ensemble, so
 * that servers can be stopped, killed and started again; the servers of an ensemble reach
 * each other as {@link PeerRoutes} say.
 */
public final class ZooKeeperEnsemble implements AutoCloseable {

	private static final int START_ATTEMPTS = 3;

	private final List<ZooKeeperServerProcess> servers;

	private ZooKeeperEnsemble(List<ZooKeeperServerProcess> servers) {
		this.servers = servers;
	}

	/**
	 * Configures the servers (ports, data directories, {@code zoo.cfg} and {@code myid}
	 * files) and starts none. Their ports stay reserved until every port is chosen and
	 * every route opened, so that no two get the same one.
	 * @param directory the directory under which each server gets its own
	 * @param size the number of servers: 1 for a standalone server
	 * @param settings how the servers run
	 * @param peers how the servers reach each other
	 * @return the configured servers
	 * @throws IOException if no free port can be found or a file cannot be written
	 */
	public static ZooKeeperEnsemble configure(Path directory, int size, ServerSettings settings, PeerRoutes peers)
			throws IOException {
		List<ServerSocket> reserved = new ArrayList<>();
		try {
			int[][] ports = new int[size][];
			for (int i = 0; i < size; i++) {
				ports[i] = new int[] { reservePort(reserved), reservePort(reserved), reservePort(reserved) };
			}
			List<ZooKeeperServerProcess> servers = new ArrayList<>();
			for (int id = 1; id <= size; id++) {
				servers.add(new ZooKeeperServerProcess(directory.resolve("server-" + id), id, ports[id - 1][0],
						(size > 1) ? peerLines(id, ports, peers) : List.of(), settings));
			}
			return new ZooKeeperEnsemble(servers);
		}
		finally {
			for (ServerSocket socket : reserved) {
				socket.close();
			}
		}
	}

	private static int reservePort(List<ServerSocket> reserved) throws IOException {
		ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
		reserved.add(socket);
		return socket.getLocalPort();
	}

	/**
	 * The {@code server.N} lines of one server's {@code zoo.cfg}: its own ports, and for
	 * every other server the ports that the routes give.
	 */
	private static List<String> peerLines(int id, int[][] ports, PeerRoutes peers) throws IOException {
		List<String> lines = new ArrayList<>();
		for (int peer = 1; peer <= ports.length; peer++) {
			int quorum = ports[peer - 1][1];
			int election = ports[peer - 1][2];
			if (peer != id) {
				quorum = peers.portTo(id, peer, PeerPort.QUORUM, quorum);
				election = peers.portTo(id, peer, PeerPort.ELECTION, election);
			}
			lines.add("server." + peer + "=127.0.0.1:" + quorum + ":" + election);
		}
		return lines;
	}

	/**
	 * Configures and starts servers that reach each other directly, and waits until they
	 * serve. A port found free can be taken by another process before a server binds it:
	 * the servers then start again, on other ports, up to three times.
	 * @param directory the directory under which each server gets its own
	 * @param size the number of servers: 1 for a standalone server
	 * @param settings how the servers run
	 * @param timeout how long to wait for them to serve, each time
	 * @return the serving servers
	 * @throws IOException if no free port can be found or a file cannot be written
	 * @throws InterruptedException if interrupted while waiting
	 * @throws IllegalStateException if a server exits or they do not serve in time
	 */
	public static ZooKeeperEnsemble startServing(Path directory, int size, ServerSettings settings, Duration timeout)
			throws IOException, InterruptedException {
		for (int attempt = 1;; attempt++) {
			ZooKeeperEnsemble ensemble = configure(directory, size, settings, PeerRoutes.DIRECT);
			try {
				ensemble.start();
				ensemble.awaitServing(timeout);
				return ensemble;
			}
			catch (IllegalStateException ex) {
				ensemble.close();
				if (attempt == START_ATTEMPTS || !ensemble.lostAPort()) {
					throw ex;
				}
				System.out.println("A port was taken before ZooKeeper bound it; starting again on other ports");
			}
			catch (RuntimeException | InterruptedException ex) {
				ensemble.close();
				throw ex;
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
	 * The servers, in the order of their ids.
	 * @return the servers
	 */
	public List<ZooKeeperServerProcess> servers() {
		return List.copyOf(this.servers);
	}

	/**
	 * The connect string of every server.
	 * @return the connect string
	 */
	public String connectString() {
		return this.servers.stream().map(ZooKeeperServerProcess::address).collect(Collectors.joining(","));
	}

	/**
	 * Starts every server that does not run.
	 */
	public void start() {
		this.servers.stream().filter((server) -> !server.isRunning()).forEach(ZooKeeperServerProcess::start);
	}

	/**
	 * Waits until every started server serves clients and one of them leads (or the
	 * standalone server serves). Servers stopped or killed on purpose are left out.
	 * @param timeout how long to wait
	 * @return how long it took
	 * @throws InterruptedException if interrupted while waiting
	 * @throws IllegalStateException if a started server exits or they do not serve in
	 * time
	 */
	public Duration awaitServing(Duration timeout) throws InterruptedException {
		long started = System.nanoTime();
		long deadline = started + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			List<@Nullable String> modes = this.servers.stream()
				.filter(ZooKeeperServerProcess::isStarted)
				.map(ZooKeeperServerProcess::mode)
				.toList();
			if (!modes.isEmpty() && modes.stream().allMatch(Objects::nonNull)
					&& (modes.contains("leader") || modes.contains("standalone"))) {
				return Duration.ofNanos(System.nanoTime() - started);
			}
			Thread.sleep(100);
		}
		throw new IllegalStateException("ZooKeeper (" + connectString() + ") did not serve within " + timeout + "; see "
				+ this.servers.stream().map((server) -> server.log().toString()).toList());
	}

	/**
	 * The server that leads the ensemble now.
	 * @return the leader
	 * @throws IllegalStateException if none leads
	 */
	public ZooKeeperServerProcess leader() {
		return this.servers.stream()
			.filter((server) -> "leader".equals(server.mode()))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No server of " + connectString() + " leads"));
	}

	/**
	 * The servers that follow the leader now.
	 * @return the followers, in the order of their ids
	 */
	public List<ZooKeeperServerProcess> followers() {
		return this.servers.stream().filter((server) -> "follower".equals(server.mode())).toList();
	}

	/**
	 * Stops every server with {@code SIGTERM}; their data stays for a restart.
	 * @throws InterruptedException if interrupted while waiting for a server to stop
	 */
	public void stop() throws InterruptedException {
		for (ZooKeeperServerProcess server : this.servers) {
			server.stop();
		}
	}

	/**
	 * Deletes the data of every server, which must not run; their configuration and logs
	 * stay.
	 * @throws IOException if the data cannot be deleted
	 */
	public void deleteData() throws IOException {
		for (ZooKeeperServerProcess server : this.servers) {
			if (Files.exists(server.dataDirectory())) {
				try (Stream<Path> files = Files.walk(server.dataDirectory())) {
					for (Path file : files.sorted(Comparator.reverseOrder()).toList()) {
						Files.delete(file);
					}
				}
			}
		}
	}

	/**
	 * Kills every server that still runs.
	 */
	@Override
	public void close() {
		this.servers.forEach(ZooKeeperServerProcess::kill);
	}

}
