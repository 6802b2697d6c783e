package dev.zklock.faults;

import java.io.IOException;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Collectors;

import dev.zklock.testsupport.process.ZooKeeperEnsemble;
import dev.zklock.testsupport.process.ZooKeeperServerProcess;

/**
 * The {@link LinkProxy links} of a run's workers, one from each worker to each ZooKeeper
 * server, through which the test cuts, slows down or breaks a worker's connections.
 */
final class WorkerLinks implements AutoCloseable {

	private final ZooKeeperEnsemble ensemble;

	private final Map<String, List<LinkProxy>> links = new LinkedHashMap<>();

	WorkerLinks(ZooKeeperEnsemble ensemble) {
		this.ensemble = ensemble;
	}

	/**
	 * Opens a worker's links, one to each server.
	 * @param worker the worker's name
	 * @return the connect string that reaches every server through the worker's links
	 * @throws IOException if a link cannot listen
	 */
	String open(String worker) throws IOException {
		List<LinkProxy> opened = new ArrayList<>();
		this.links.put(worker, opened);
		for (ZooKeeperServerProcess server : this.ensemble.servers()) {
			opened.add(LinkProxy.start(worker + "->zk" + server.id(), server.clientPort()));
		}
		return opened.stream().map(LinkProxy::address).collect(Collectors.joining(","));
	}

	/**
	 * The links of a worker, one to each server, in the order of the servers.
	 * @param worker the worker
	 * @return its links
	 */
	List<LinkProxy> of(WorkerProcess worker) {
		return this.links.get(worker.name());
	}

	/**
	 * The worker's link to a server.
	 * @param worker the worker
	 * @param server the server
	 * @return the link
	 */
	LinkProxy to(WorkerProcess worker, ZooKeeperServerProcess server) {
		return of(worker).get(this.ensemble.servers().indexOf(server));
	}

	/**
	 * The link over which the worker's ZooKeeper client talks now: of those with an open
	 * connection, the one that last forwarded bytes.
	 * @param worker the worker
	 * @return the link in use
	 */
	LinkProxy inUse(WorkerProcess worker) {
		return of(worker).stream()
			.filter(LinkProxy::hasOpenConnection)
			.max(Comparator.comparingLong(LinkProxy::lastForwardedNanos))
			.orElseThrow(() -> new IllegalStateException(worker + " has no open connection to ZooKeeper"));
	}

	/**
	 * The server the worker's ZooKeeper client talks to now.
	 * @param worker the worker
	 * @return the server at the other end of its link in use
	 */
	ZooKeeperServerProcess serverInUse(WorkerProcess worker) {
		return this.ensemble.servers().get(of(worker).indexOf(inUse(worker)));
	}

	/**
	 * Cuts a worker off from every ZooKeeper server.
	 * @param worker the worker
	 */
	void cutOff(WorkerProcess worker) {
		of(worker).forEach(LinkProxy::cut);
	}

	/**
	 * Heals every link of a worker: cuts, delays and random drops end.
	 * @param worker the worker
	 */
	void heal(WorkerProcess worker) {
		of(worker).forEach(LinkProxy::heal);
	}

	@Override
	public void close() {
		this.links.values().forEach((opened) -> opened.forEach(LinkProxy::close));
	}

}
