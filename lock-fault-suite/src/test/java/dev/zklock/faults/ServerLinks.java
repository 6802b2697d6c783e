package dev.zklock.faults;

import java.io.IOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

import dev.zklock.testsupport.process.PeerRoutes;
import dev.zklock.testsupport.process.ZooKeeperServerProcess;

/**
 * The {@link LinkProxy links} between the ZooKeeper servers of a run's ensemble: one per
 * ordered pair of servers and port, each server's {@code zoo.cfg} naming its own ports
 * and, for every other server, the links that lead there. A server is partitioned from
 * the others by cutting its links. ZooKeeper keeps one election connection per pair of
 * servers, made by the server of the greater id; when the smaller one dials first, the
 * greater one dials back to the election address that the smaller one announces, its own
 * port, bypassing the links. So election messages may still pass a partition, but they
 * cannot end it: a server that lost its leader must connect to the leader's quorum port
 * to follow it, and followers to a new leader's, always through the links.
 */
final class ServerLinks implements PeerRoutes, AutoCloseable {

	private final List<PeerLink> links = new ArrayList<>();

	@Override
	public int portTo(int from, int to, PeerPort port, int portNumber) throws IOException {
		LinkProxy link = LinkProxy.start("zk" + from + "->zk" + to + "-" + port.name().toLowerCase(Locale.ROOT),
				portNumber);
		this.links.add(new PeerLink(from, to, link));
		return link.port();
	}

	/**
	 * Cuts a server off from every other server, both ways, while its clients may still
	 * reach it: a minority partition.
	 * @param server the server to isolate
	 */
	void isolate(ZooKeeperServerProcess server) {
		linksOf(server).forEach(LinkProxy::cut);
	}

	/**
	 * Heals the links between a server and the others.
	 * @param server the server
	 */
	void reconnect(ZooKeeperServerProcess server) {
		linksOf(server).forEach(LinkProxy::heal);
	}

	private List<LinkProxy> linksOf(ZooKeeperServerProcess server) {
		return this.links.stream()
			.filter((link) -> link.from() == server.id() || link.to() == server.id())
			.map(PeerLink::link)
			.toList();
	}

	@Override
	public void close() {
		this.links.forEach((link) -> link.link().close());
	}

	/**
	 * The link from one server to a port of another.
	 *
	 * @param from the id of the server that dials
	 * @param to the id of the server it reaches
	 * @param link the link
	 */
	private record PeerLink(int from, int to, LinkProxy link) {

	}

}
