package dev.zklock.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadLocalRandom;
import java.util.concurrent.atomic.AtomicLong;

/**
 * One network link the suite controls: a TCP proxy on 127.0.0.1 that forwards every
 * connection it accepts to one address (a ZooKeeper server's client, quorum or election
 * port), and that can cut the link, slow it down or break its connections at random.
 * <p>
 * A cut is a black hole, as a partition is: connections stay open and nothing passes in
 * either direction, so each side only learns of it from its own timeouts; a connection
 * made during the cut is accepted but reaches the other side only once the link heals.
 * What was sent during the cut is held and delivered, in order, when the link heals, as
 * TCP's retransmissions would deliver it after a partition shorter than their timeout.
 * <p>
 * Each connection has a thread per direction that reads and one that writes, so that a
 * delay holds every chunk for the same time without slowing the link's throughput.
 */
final class LinkProxy implements AutoCloseable {

	private static final byte[] END = new byte[0];

	/** How long a connection through the link waits for its target to accept it. */
	private static final Duration UPSTREAM_RETRIES = Duration.ofSeconds(1);

	private final String name;

	private final ServerSocket listener;

	private final InetSocketAddress target;

	private final List<Connection> connections = new CopyOnWriteArrayList<>();

	private final Object gate = new Object();

	private final AtomicLong heldBytes = new AtomicLong();

	private final AtomicLong drops = new AtomicLong();

	private final AtomicLong accepted = new AtomicLong();

	private volatile long lastForwardedNanos;

	private volatile long delayNanos;

	private volatile double dropProbability;

	private boolean cut;

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
		daemon(name + "-accept", proxy::acceptConnections);
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
	 * Cuts the link: nothing passes until {@link #heal()}.
	 */
	void cut() {
		synchronized (this.gate) {
			this.cut = true;
		}
	}

	/**
	 * Ends a cut, a delay and random drops: what was held back is delivered, in order.
	 */
	void heal() {
		this.delayNanos = 0;
		this.dropProbability = 0;
		synchronized (this.gate) {
			this.cut = false;
			this.gate.notifyAll();
		}
	}

	boolean isCut() {
		synchronized (this.gate) {
			return this.cut;
		}
	}

	/**
	 * Delays every chunk read from now on, in both directions: a round trip through the
	 * link takes twice as long more.
	 * @param oneWay the delay of each direction
	 */
	void delay(Duration oneWay) {
		this.delayNanos = oneWay.toNanos();
	}

	/**
	 * Breaks connections at random from now on: each chunk about to be forwarded resets
	 * its connection (both sides see it closed) with the given probability, and so does
	 * each new connection as it is accepted. Dropping single packets would corrupt the
	 * byte stream instead, which TCP never lets happen; a lossy network shows through TCP
	 * as connections that stall and break.
	 * @param probability the probability of a reset per chunk and per new connection
	 */
	void dropAtRandom(double probability) {
		this.dropProbability = probability;
	}

	/**
	 * Bytes held back by a cut so far: sent into the link while it was cut.
	 * @return the number of bytes
	 */
	long heldBytes() {
		return this.heldBytes.get();
	}

	/**
	 * Connections reset at random so far.
	 * @return the number of resets
	 */
	long drops() {
		return this.drops.get();
	}

	/**
	 * Connections accepted so far.
	 * @return the number of connections
	 */
	long acceptedConnections() {
		return this.accepted.get();
	}

	/**
	 * When the link last forwarded bytes, in {@link System#nanoTime()} of this JVM.
	 * @return the time, or {@code 0} when it never did
	 */
	long lastForwardedNanos() {
		return this.lastForwardedNanos;
	}

	/**
	 * Whether a connection through the link is open on both sides.
	 * @return whether one is open
	 */
	boolean hasOpenConnection() {
		return this.connections.stream().anyMatch(Connection::isOpen);
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
		this.connections.forEach(Connection::close);
	}

	@Override
	public String toString() {
		return "link " + this.name + " (" + address() + " -> " + this.target.getPort() + ")";
	}

	private void acceptConnections() {
		while (!this.closed) {
			try {
				Socket client = this.listener.accept();
				this.accepted.incrementAndGet();
				Connection connection = new Connection(client);
				this.connections.add(connection);
				daemon(this.name + "-open", connection::open);
			}
			catch (IOException ex) {
				// closed, or an accept that failed: go on until closed
			}
		}
	}

	/**
	 * Waits while the link is cut.
	 * @return whether it waited
	 */
	private boolean awaitOpenLink() throws InterruptedException {
		synchronized (this.gate) {
			boolean waited = this.cut;
			while (this.cut) {
				this.gate.wait();
			}
			return waited;
		}
	}

	private boolean dropNow() {
		double probability = this.dropProbability;
		return probability > 0 && ThreadLocalRandom.current().nextDouble() < probability;
	}

	private static void daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
	}

	private record Chunk(byte[] bytes, long dueNanos) {

	}

	/**
	 * One connection through the link: the accepted client socket and its connection to
	 * the target, made once the link lets it through.
	 */
	private final class Connection {

		private final Socket client;

		private volatile Socket upstream;

		private volatile boolean closed;

		Connection(Socket client) {
			this.client = client;
		}

		void open() {
			try {
				awaitOpenLink();
				if (dropNow()) {
					LinkProxy.this.drops.incrementAndGet();
					reset();
					return;
				}
				Socket socket = connectUpstream();
				this.upstream = socket;
				socket.setTcpNoDelay(true);
				this.client.setTcpNoDelay(true);
				if (this.closed) {
					close();
					return;
				}
				pipe(this.client, socket, "up");
				pipe(socket, this.client, "down");
			}
			catch (IOException | InterruptedException ex) {
				close();
			}
		}

		/**
		 * Connects to the target, trying again for a while if it refuses: a connection
		 * through the link is accepted before the target is asked, so a refusal can only
		 * show as a connection that closes at once, which ZooKeeper takes for a failure
		 * of the peer rather than of the connection (a follower that dials a new leader
		 * before it listens would give up following it). Trying again for as long as a
		 * client would wait for a connection lets the target start listening meanwhile.
		 */
		private Socket connectUpstream() throws IOException, InterruptedException {
			long deadline = System.nanoTime() + UPSTREAM_RETRIES.toNanos();
			while (true) {
				Socket socket = new Socket();
				try {
					socket.connect(LinkProxy.this.target, 5000);
					return socket;
				}
				catch (IOException ex) {
					socket.close();
					if (this.closed || System.nanoTime() - deadline > 0) {
						throw ex;
					}
					Thread.sleep(50);
				}
			}
		}

		private void pipe(Socket from, Socket to, String direction) {
			BlockingQueue<Chunk> chunks = new LinkedBlockingQueue<>();
			daemon(LinkProxy.this.name + "-read-" + direction, () -> read(from, chunks));
			daemon(LinkProxy.this.name + "-write-" + direction, () -> write(chunks, to));
		}

		private void read(Socket from, BlockingQueue<Chunk> chunks) {
			byte[] buffer = new byte[16384];
			try {
				InputStream input = from.getInputStream();
				for (int read = input.read(buffer); read >= 0; read = input.read(buffer)) {
					if (isCut()) {
						LinkProxy.this.heldBytes.addAndGet(read);
					}
					chunks.add(new Chunk(Arrays.copyOf(buffer, read), System.nanoTime() + LinkProxy.this.delayNanos));
				}
			}
			catch (IOException ex) {
				// closed or reset: end the other direction too, after what was read
			}
			chunks.add(new Chunk(END, System.nanoTime()));
		}

		private void write(BlockingQueue<Chunk> chunks, Socket to) {
			try {
				OutputStream output = to.getOutputStream();
				while (true) {
					Chunk chunk = chunks.take();
					long wait = chunk.dueNanos() - System.nanoTime();
					if (wait > 0) {
						Thread.sleep(wait / 1_000_000, (int) (wait % 1_000_000));
					}
					awaitOpenLink();
					if (chunk.bytes() == END) {
						break;
					}
					if (dropNow()) {
						LinkProxy.this.drops.incrementAndGet();
						reset();
						return;
					}
					output.write(chunk.bytes());
					output.flush();
					LinkProxy.this.lastForwardedNanos = System.nanoTime();
				}
			}
			catch (IOException | InterruptedException ex) {
				// the other side closed
			}
			close();
		}

		boolean isOpen() {
			return !this.closed && this.upstream != null;
		}

		/**
		 * Closes both sides with a reset rather than an orderly close.
		 */
		void reset() {
			for (Socket socket : new Socket[] { this.client, this.upstream }) {
				if (socket != null) {
					try {
						socket.setSoLinger(true, 0);
					}
					catch (IOException ex) {
						// already closed
					}
				}
			}
			close();
		}

		void close() {
			this.closed = true;
			for (Socket socket : new Socket[] { this.client, this.upstream }) {
				if (socket != null) {
					try {
						socket.close();
					}
					catch (IOException ex) {
						// already closed
					}
				}
			}
			LinkProxy.this.connections.remove(this);
		}

	}

}
