package dev.zklock.faults;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

/**
 * ZooKeeper servers on 127.0.0.1, each in its own JVM: one standalone server, or an
 * ensemble of several that elect a leader. Every server keeps its data directory and
 * ports for the life of the ensemble, so that servers can be killed and started again.
 * <p>
 * The servers of an ensemble reach each other through {@link LinkProxy links}: one per
 * ordered pair of servers and port, each server's {@code zoo.cfg} naming its own ports
 * and, for every other server, the links that lead there. A server is partitioned from
 * the others by cutting its links. ZooKeeper keeps one election connection per pair of
 * servers, made by the server of the greater id; when the smaller one dials first, the
 * greater one dials back to the election address that the smaller one announces, its own
 * port, bypassing the links. So election messages may still pass a partition, but they
 * cannot end it: a server that lost its leader must connect to the leader's quorum port
 * to follow it, and followers to a new leader's, always through the links.
 * <p>
 * A short tick (200 ms) lets sessions of a few seconds be negotiated and lets elections
 * and expiries happen within seconds.
 */
final class ZooKeeperEnsemble implements AutoCloseable {

	private static final int TICK_MILLIS = 200;

	private final List<ZooKeeperServerProcess> servers = new ArrayList<>();

	/** The links between servers, by the ids of the servers they join. */
	private final Map<List<Integer>, List<LinkProxy>> peerLinks = new LinkedHashMap<>();

	/**
	 * Configures the servers (ports, data directories, {@code myid} files) and starts the
	 * links between them; starts no server.
	 * @param directory the directory under which each server gets its own
	 * @param size the number of servers: 1 for a standalone server
	 */
	ZooKeeperEnsemble(Path directory, int size) throws IOException {
		List<ServerSocket> reserved = new ArrayList<>();
		try {
			configure(directory, size, reserved);
		}
		finally {
			for (ServerSocket socket : reserved) {
				socket.close();
			}
		}
	}

	/**
	 * Configures the servers on ports that stay reserved until they are all chosen and
	 * the links have their own: no two get the same one.
	 */
	private void configure(Path directory, int size, List<ServerSocket> reserved) throws IOException {
		int[] clientPorts = new int[size];
		int[][] peerPorts = new int[size][];
		for (int id = 1; id <= size; id++) {
			clientPorts[id - 1] = reservePort(reserved);
			peerPorts[id - 1] = new int[] { reservePort(reserved), reservePort(reserved) };
		}
		for (int id = 1; id <= size; id++) {
			List<String> serverLines = new ArrayList<>();
			for (int peer = 1; size > 1 && peer <= size; peer++) {
				int[] ports = peerPorts[peer - 1];
				if (peer != id) {
					LinkProxy quorum = LinkProxy.start("zk" + id + "->zk" + peer + "-quorum", ports[0]);
					LinkProxy election = LinkProxy.start("zk" + id + "->zk" + peer + "-election", ports[1]);
					this.peerLinks.put(List.of(id, peer), List.of(quorum, election));
					ports = new int[] { quorum.port(), election.port() };
				}
				serverLines.add("server." + peer + "=127.0.0.1:" + ports[0] + ":" + ports[1]);
			}
			Path serverDirectory = Files.createDirectories(directory.resolve("zk" + id));
			Path data = Files.createDirectories(serverDirectory.resolve("data"));
			if (size > 1) {
				Files.writeString(data.resolve("myid"), Integer.toString(id));
			}
			List<String> config = new ArrayList<>(List.of("tickTime=" + TICK_MILLIS, "initLimit=10", "syncLimit=5",
					"dataDir=" + data.toAbsolutePath(), "clientPort=" + clientPorts[id - 1],
					"clientPortAddress=127.0.0.1", "minSessionTimeout=" + (2 * TICK_MILLIS), "maxSessionTimeout=20000",
					"admin.enableServer=false", "4lw.commands.whitelist=srvr,ruok", "preAllocSize=1024"));
			config.addAll(serverLines);
			Files.write(serverDirectory.resolve("zoo.cfg"), config, StandardCharsets.UTF_8);
			this.servers.add(new ZooKeeperServerProcess(id, serverDirectory, clientPorts[id - 1]));
		}
	}

	/**
	 * Makes the servers, before their first start, believe they already went through
	 * leader elections up to the given epoch: the first leader then numbers its
	 * transactions (zxids) in the next epoch.
	 * @param epoch the epoch the servers have accepted
	 */
	void acceptEpoch(long epoch) throws IOException {
		for (ZooKeeperServerProcess server : this.servers) {
			Path snapshots = Files.createDirectories(server.directory().resolve("data").resolve("version-2"));
			Files.writeString(snapshots.resolve("acceptedEpoch"), Long.toString(epoch));
			Files.writeString(snapshots.resolve("currentEpoch"), Long.toString(epoch));
		}
	}

	/**
	 * The servers, in the order of their ids.
	 * @return the servers
	 */
	List<ZooKeeperServerProcess> servers() {
		return List.copyOf(this.servers);
	}

	private static int reservePort(List<ServerSocket> reserved) throws IOException {
		ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress());
		reserved.add(socket);
		return socket.getLocalPort();
	}

	String connectString() {
		return this.servers.stream().map(ZooKeeperServerProcess::address).collect(Collectors.joining(","));
	}

	/**
	 * Cuts a server off from every other server, both ways, while its clients may still
	 * reach it: a minority partition.
	 * @param server the server to isolate
	 */
	void isolate(ZooKeeperServerProcess server) {
		peerLinksOf(server).forEach(LinkProxy::cut);
	}

	/**
	 * Heals the links between a server and the others.
	 * @param server the server
	 */
	void reconnect(ZooKeeperServerProcess server) {
		peerLinksOf(server).forEach(LinkProxy::heal);
	}

	private List<LinkProxy> peerLinksOf(ZooKeeperServerProcess server) {
		return this.peerLinks.entrySet()
			.stream()
			.filter((link) -> link.getKey().contains(server.id()))
			.flatMap((link) -> link.getValue().stream())
			.toList();
	}

	/**
	 * The servers that follow the leader.
	 * @return the followers
	 */
	List<ZooKeeperServerProcess> followers() {
		return this.servers.stream().filter((server) -> "follower".equals(server.mode())).toList();
	}

	/**
	 * Starts every server that is not running.
	 */
	void start() {
		this.servers.stream().filter((server) -> !server.isRunning()).forEach(ZooKeeperServerProcess::start);
	}

	/**
	 * Waits until every running server serves clients and one of them leads (or the
	 * standalone server serves).
	 * @param timeout how long to wait
	 * @return how long it took
	 */
	Duration awaitServing(Duration timeout) throws InterruptedException {
		long started = System.nanoTime();
		long deadline = started + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			List<String> modes = this.servers.stream()
				.filter(ZooKeeperServerProcess::isRunning)
				.map(ZooKeeperServerProcess::mode)
				.toList();
			if (!modes.isEmpty() && !modes.contains(null)
					&& (modes.contains("leader") || modes.contains("standalone"))) {
				return Duration.ofNanos(System.nanoTime() - started);
			}
			Thread.sleep(100);
		}
		throw new IllegalStateException("ZooKeeper (" + connectString() + ") did not serve within " + timeout);
	}

	/**
	 * The server that currently leads the ensemble.
	 * @return the leader
	 */
	ZooKeeperServerProcess leader() {
		return this.servers.stream()
			.filter((server) -> "leader".equals(server.mode()))
			.findFirst()
			.orElseThrow(() -> new IllegalStateException("No server of " + connectString() + " leads"));
	}

	/**
	 * Stops every server with {@code SIGTERM}; their data stays for a restart.
	 */
	void stop() throws InterruptedException {
		for (ZooKeeperServerProcess server : this.servers) {
			server.stop();
		}
	}

	/**
	 * Kills every server that still runs and closes the links between them.
	 */
	@Override
	public void close() {
		this.servers.forEach(ZooKeeperServerProcess::kill);
		this.peerLinks.values().forEach((links) -> links.forEach(LinkProxy::close));
	}

}
