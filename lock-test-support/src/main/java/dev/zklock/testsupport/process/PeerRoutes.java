package dev.zklock.testsupport.process;

import java.io.IOException;

/**
 * How a server of a {@link ZooKeeperEnsemble} reaches the quorum and election ports of
 * another: {@link #DIRECT directly}, or through a link that the caller opens, such as a
 * proxy that a test can cut to partition the ensemble.
 */
@FunctionalInterface
public interface PeerRoutes {

	/** Every server dials the other servers' own ports. */
	PeerRoutes DIRECT = (from, to, port, portNumber) -> portNumber;

	/**
	 * The port that a server dials to reach a port of another server; called once for
	 * every ordered pair of servers and port, while the ensemble is configured.
	 * @param from the id of the server that dials
	 * @param to the id of the server it reaches
	 * @param port which of that server's ports it reaches
	 * @param portNumber that port's number on 127.0.0.1
	 * @return the port on 127.0.0.1 that {@code from} dials for it
	 * @throws IOException if a link cannot be opened
	 */
	int portTo(int from, int to, PeerPort port, int portNumber) throws IOException;

	/**
	 * The ports by which the servers of an ensemble reach each other.
	 */
	enum PeerPort {

		/** Where followers connect to the leader. */
		QUORUM,

		/** Where servers exchange their votes in a leader election. */
		ELECTION

	}

}
