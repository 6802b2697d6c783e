package dev.zklock.benchmarks;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Collectors;

import dev.zklock.testsupport.process.ServerSettings;
import dev.zklock.testsupport.process.ZooKeeperEnsemble;
import dev.zklock.testsupport.process.ZooKeeperServerProcess;

/**
 * The ZooKeeper servers of a benchmark run, a {@link ZooKeeperEnsemble} in
 * {@code server-N} directories: one standalone server, or an ensemble that elects a
 * leader. Empty container nodes are reaped every second and without a rate limit, so that
 * the node count after a many-keys run shows what the libraries leave behind rather than
 * the reaper's pace. Every client of the run connects to the same server, a follower in
 * an ensemble, so that every variant's writes take the same path (follower, leader,
 * quorum, and back): left to choose among all servers, each client would pick one at
 * random, and the ratios of one run would compare clients of the leader with clients of a
 * follower.
 */
final class BenchmarkServers implements AutoCloseable {

	private static final List<String> JVM_OPTIONS = List.of("-Xms256m", "-Xmx1g",
			"-Dznode.container.checkIntervalMs=1000", "-Dznode.container.maxPerMinute=100000000");

	private static final List<String> ZOO_CFG = List.of("tickTime=2000", "maxClientCnxns=0");

	private final ZooKeeperEnsemble ensemble;

	private final ZooKeeperServerProcess clientsServer;

	private BenchmarkServers(ZooKeeperEnsemble ensemble, ZooKeeperServerProcess clientsServer) {
		this.ensemble = ensemble;
		this.clientsServer = clientsServer;
	}

	/**
	 * Starts the servers, waits until they serve, and chooses the server of the clients.
	 * @param directory the directory of the servers' own directories
	 * @param size the number of servers: 1 for a standalone server
	 * @param settings further lines of every server's {@code zoo.cfg}
	 * @param timeout how long to wait for them to serve
	 * @return the serving servers
	 * @throws IOException if no free port can be found
	 * @throws InterruptedException if interrupted while waiting
	 * @throws IllegalStateException if a server exits or they do not serve in time
	 */
	static BenchmarkServers startServing(Path directory, int size, List<String> settings, Duration timeout)
			throws IOException, InterruptedException {
		List<String> zooCfg = new ArrayList<>(ZOO_CFG);
		zooCfg.addAll(settings);
		ZooKeeperEnsemble ensemble = ZooKeeperEnsemble.startServing(directory, size,
				new ServerSettings(JVM_OPTIONS, zooCfg), timeout);
		List<ZooKeeperServerProcess> followers = ensemble.followers();
		return new BenchmarkServers(ensemble, followers.isEmpty() ? ensemble.servers().get(0) : followers.get(0));
	}

	/**
	 * The connect string of every client of the run: the one server they all use.
	 * @return the connect string
	 */
	String connectString() {
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
		List<ZooKeeperServerProcess> servers = this.ensemble.servers();
		if (servers.size() == 1) {
			return "ZooKeeper server on " + connectString();
		}
		return "ZooKeeper ensemble of " + servers.size() + " servers ("
				+ servers.stream()
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
		this.ensemble.stop();
		this.ensemble.deleteData();
	}

}
