package dev.zklock.faults;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * One network link the suite controls: a TCP proxy on 127.0.0.1 that forwards every
 * connection it accepts to one address (a ZooKeeper server's client, quorum or election
 * port), and that can cut the link, slow it down or break its connections at random (see
 * {@link LinkFaults}). Each connection it accepts is a {@link LinkConnection} of its own.
 */
final class LinkProxy implements AutoCloseable {

	private final String name;

	private final ServerSocket listener;

	private final InetSocketAddress target;

	private final List<LinkConnection> connections = new CopyOnWriteArrayList<>();

	private final LinkFaults faults = new LinkFaults();

	private final LinkTraffic traffic = new LinkTraffic();

	private volatile boolean closed;

	private LinkProxy(String name, ServerSocket listener, InetSocketAddress target) {
		this.name = name;
		this.listener = listener;
		this.target = target;
	}

	/**
	 * Starts a proxy on 127.0.0.1 and a free port.
	 * @param name the link's name, such as {@code w1->zk2}
	 * @param targetPort the port on 127.0.0.1 it forwards to
	 * @return the running proxy
	 */
	static LinkProxy start(String name, int targetPort) throws IOException {
		LinkProxy proxy = new LinkProxy(name, new ServerSocket(0, 50, InetAddress.getLoopbackAddress()),
				new InetSocketAddress(InetAddress.getLoopbackAddress(), targetPort));
		Thread acceptor = new Thread(proxy::acceptConnections, name + "-accept");
		acceptor.setDaemon(true);
		acceptor.start();
		return proxy;
	}

	String name() {
		return this.name;
	}

	int port() {
		return this.listener.getLocalPort();
	}

	String address() {
		return "127.0.0.1:" + port();
	}

	/**
	 * The faults the link injects at the moment, which its connections obey.
	 * @return the faults
	 */
	LinkFaults faults() {
		return this.faults;
	}

	/**
	 * Cuts the link: nothing passes until {@link #heal()}.
	 */
	void cut() {
		this.faults.cut();
	}

	/**
	 * Ends a cut, a delay and random drops: what was held back is delivered, in order.
	 */
	void heal() {
		this.faults.heal();
	}

	/**
	 * Delays every chunk read from now on, in both directions.
	 * @param oneWay the delay of each direction
	 * @see LinkFaults#delay(Duration)
	 */
	void delay(Duration oneWay) {
		this.faults.delay(oneWay);
	}

	/**
	 * Breaks connections at random from now on.
	 * @param probability the probability of a reset per chunk and per new connection
	 * @see LinkFaults#dropAtRandom(double)
	 */
	void dropAtRandom(double probability) {
		this.faults.dropAtRandom(probability);
	}

	/**
	 * What passed through the link so far, as its connections count it.
	 * @return the traffic
	 */
	LinkTraffic traffic() {
		return this.traffic;
	}

	/**
	 * Bytes held back by a cut so far: sent into the link while it was cut.
	 * @return the number of bytes
	 */
	long heldBytes() {
		return this.traffic.heldBytes();
	}

	/**
	 * Connections reset at random so far.
	 * @return the number of resets
	 */
	long drops() {
		return this.traffic.drops();
	}

	/**
	 * When the link last forwarded bytes, in {@link System#nanoTime()} of this JVM.
	 * @return the time, or {@code 0} when it never did
	 */
	long lastForwardedNanos() {
		return this.traffic.lastForwardedNanos();
	}

	/**
	 * Whether a connection through the link is open on both sides.
	 * @return whether one is open
	 */
	boolean hasOpenConnection() {
		return this.connections.stream().anyMatch(LinkConnection::isOpen);
	}

	@Override
	public void close() {
		this.closed = true;
		heal();
		try {
			this.listener.close();
		}
		catch (IOException ex) {
			// already closed
		}
		this.connections.forEach(LinkConnection::close);
	}

	@Override
	public String toString() {
		return "link " + this.name + " (" + address() + " -> " + this.target.getPort() + ")";
	}

	/**
	 * The address the link forwards to, which its connections dial.
	 * @return the target's address
	 */
	InetSocketAddress target() {
		return this.target;
	}

	/**
	 * Forgets a connection once it is closed.
	 * @param connection the closed connection
	 */
	void forget(LinkConnection connection) {
		this.connections.remove(connection);
	}

	private void acceptConnections() {
		while (!this.closed) {
			try {
				Socket client = this.listener.accept();
				LinkConnection connection = new LinkConnection(client, this);
				this.connections.add(connection);
				connection.start();
			}
			catch (IOException ex) {
				// closed, or an accept that failed: go on until closed
			}
		}
	}

}
