package dev.zklock.faults;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.time.Duration;
import java.util.Arrays;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;

/**
 * One connection through a {@link LinkProxy link}: the accepted client socket and its
 * connection to the target, made once the link lets it through, and the bytes forwarded
 * between them as the link's {@link LinkFaults faults} allow, counted in its
 * {@link LinkTraffic traffic}.
 * <p>
 * Each direction has a thread that reads and one that writes, so that a delay holds every
 * chunk for the same time without slowing the link's throughput.
 */
final class LinkConnection {

	private static final byte[] END = new byte[0];

	/** How long a connection through the link waits for its target to accept it. */
	private static final Duration UPSTREAM_RETRIES = Duration.ofSeconds(1);

	private final Socket client;

	private final LinkProxy link;

	private volatile Socket upstream;

	private volatile boolean closed;

	/**
	 * Creates a connection through a link; {@link #start()} connects it.
	 * @param client the accepted client socket
	 * @param link the link, whose faults the connection obeys
	 */
	LinkConnection(Socket client, LinkProxy link) {
		this.client = client;
		this.link = link;
	}

	/**
	 * Connects to the target, once the link lets the connection through, and forwards
	 * both directions, all in threads of the connection's own.
	 */
	void start() {
		daemon(this.link.name() + "-open", this::open);
	}

	private void open() {
		try {
			this.link.faults().awaitOpenLink();
			if (this.link.faults().dropNow()) {
				this.link.traffic().dropped();
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
	 * through the link is accepted before the target is asked, so a refusal can only show
	 * as a connection that closes at once, which ZooKeeper takes for a failure of the
	 * peer rather than of the connection (a follower that dials a new leader before it
	 * listens would give up following it). Trying again for as long as a client would
	 * wait for a connection lets the target start listening meanwhile.
	 */
	private Socket connectUpstream() throws IOException, InterruptedException {
		long deadline = System.nanoTime() + UPSTREAM_RETRIES.toNanos();
		while (true) {
			Socket socket = new Socket();
			try {
				socket.connect(this.link.target(), 5000);
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
		daemon(this.link.name() + "-read-" + direction, () -> read(from, chunks));
		daemon(this.link.name() + "-write-" + direction, () -> write(chunks, to));
	}

	private void read(Socket from, BlockingQueue<Chunk> chunks) {
		byte[] buffer = new byte[16384];
		try {
			InputStream input = from.getInputStream();
			for (int read = input.read(buffer); read >= 0; read = input.read(buffer)) {
				if (this.link.faults().isCut()) {
					this.link.traffic().held(read);
				}
				chunks.add(new Chunk(Arrays.copyOf(buffer, read), this.link.faults().dueNanos()));
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
				this.link.faults().awaitOpenLink();
				if (chunk.bytes() == END) {
					break;
				}
				if (this.link.faults().dropNow()) {
					this.link.traffic().dropped();
					reset();
					return;
				}
				output.write(chunk.bytes());
				output.flush();
				this.link.traffic().forwarded();
			}
		}
		catch (IOException | InterruptedException ex) {
			// the other side closed
		}
		close();
	}

	/**
	 * Whether the connection is open on both sides.
	 * @return whether it is open
	 */
	boolean isOpen() {
		return !this.closed && this.upstream != null;
	}

	/**
	 * Closes both sides with a reset rather than an orderly close.
	 */
	private void reset() {
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

	/**
	 * Closes both sides.
	 */
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
		this.link.forget(this);
	}

	private static void daemon(String name, Runnable task) {
		Thread thread = new Thread(task, name);
		thread.setDaemon(true);
		thread.start();
	}

	private record Chunk(byte[] bytes, long dueNanos) {

	}

}
