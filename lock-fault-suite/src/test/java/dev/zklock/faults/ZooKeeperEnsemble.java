package dev.zklock.faults;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

/**
 * ZooKeeper servers on 127.0.0.1, each in its own JVM: one standalone server, or an
 * ensemble of several that elect a leader. Every server keeps its data directory and
 * ports for the life of the ensemble, so that servers can be killed and started again.
 * <p>
 * A short tick (200 ms) lets sessions of a few seconds be negotiated and lets elections
 * and expiries happen within seconds.
 */
final class ZooKeeperEnsemble implements AutoCloseable {

	private static final int TICK_MILLIS = 200;

	private final List<ZooKeeperServerProcess> servers = new ArrayList<>();

	/**
	 * Configures the servers (ports, data directories, {@code myid} files); starts none.
	 * @param directory the directory under which each server gets its own
	 * @param size the number of servers: 1 for a standalone server
	 */
	ZooKeeperEnsemble(Path directory, int size) throws IOException {
		int[] clientPorts = new int[size];
		List<String> serverLines = new ArrayList<>();
		for (int id = 1; id <= size; id++) {
			clientPorts[id - 1] = freePort();
			if (size > 1) {
				serverLines.add("server." + id + "=127.0.0.1:" + freePort() + ":" + freePort());
			}
		}
		for (int id = 1; id <= size; id++) {
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

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	String connectString() {
		return this.servers.stream().map(ZooKeeperServerProcess::address).collect(Collectors.joining(","));
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
	 * Kills every server that still runs.
	 */
	@Override
	public void close() {
		this.servers.forEach(ZooKeeperServerProcess::kill);
	}

}
