package dev.zklock.testsupport;

import java.io.DataInputStream;
import java.io.DataOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.CopyOnWriteArrayList;

import org.apache.curator.framework.CuratorFramework;

/**
 * A TCP proxy between ZooKeeper clients and a server that can hold the server's replies
 * back, and that records the type of every request the clients send. With the replies
 * held, the requests that still arrive are those a client sends without waiting for an
 * answer: the proxy counts round trips without measuring time. Dropping the connections
 * then loses those replies, as a network failure after the server acted would; losing the
 * requests first fails them before the server saw them.
 */
public final class ReplyHoldingProxy implements AutoCloseable {

	/** ZooKeeper's operation code of a create that returns the new node's stat. */
	public static final int CREATE2 = 15;

	/**
	 * ZooKeeper's operation code of a read of children that returns the parent's stat.
	 */
	public static final int GET_CHILDREN2 = 12;

	/** ZooKeeper's operation code of an existence check. */
	public static final int EXISTS = 3;

	/** ZooKeeper's operation code of a read of a node's data. */
	public static final int GET_DATA = 4;

	/** ZooKeeper's operation code of a delete. */
	public static final int DELETE = 2;

	/** ZooKeeper's operation code of a transaction of several writes. */
	public static final int MULTI = 14;

	private static final int PING = 11;

	private final ServerSocket listener;

	private final InetSocketAddress server;

	private final Queue<Integer> requests = new ConcurrentLinkedQueue<>();

	private final List<Socket> sockets = new CopyOnWriteArrayList<>();

	private final TestClients clients = new TestClients();

	private final Object gate = new Object();

	private boolean holding;

	private volatile boolean losingRequests;

	private volatile int holdFromOpCode = -1;

	private ReplyHoldingProxy(ServerSocket listener, InetSocketAddress server) {
		this.listener = listener;
		this.server = server;
	}

	/**
	 * Starts a proxy on 127.0.0.1 and a free port.
	 * @param serverConnectString the server's {@code host:port}
	 * @return the proxy
	 * @throws IOException if the proxy cannot listen
	 */
	public static ReplyHoldingProxy start(String serverConnectString) throws IOException {
		int colon = serverConnectString.lastIndexOf(':');
		InetSocketAddress server = new InetSocketAddress(serverConnectString.substring(0, colon),
				Integer.parseInt(serverConnectString.substring(colon + 1)));
		ReplyHoldingProxy proxy = new ReplyHoldingProxy(new ServerSocket(0, 50, InetAddress.getLoopbackAddress()),
				server);
		daemon(proxy::accept);
		return proxy;
	}

	/**
	 * The connect string that reaches the server through the proxy.
	 * @return the connect string
	 */
	public String connectString() {
		return "127.0.0.1:" + this.listener.getLocalPort();
	}

	/**
	 * Holds every reply back from now on, until {@link #releaseReplies()}.
	 */
	public void holdReplies() {
		synchronized (this.gate) {
			this.holding = true;
		}
	}

	/**
	 * Holds every reply back, until {@link #releaseReplies()}, once a request of the
	 * given type has been sent: the replies to that request and to everything before it
	 * that has not been answered yet are held too.
	 * @param opCode the operation code of the request, such as {@link #EXISTS}
	 */
	public void holdRepliesFrom(int opCode) {
		this.holdFromOpCode = opCode;
	}

	/**
	 * Lets held replies, and later ones, through.
	 */
	public void releaseReplies() {
		synchronized (this.gate) {
			this.holding = false;
			this.gate.notifyAll();
		}
	}

	/**
	 * Records the requests sent from now on but lets none reach the server, until
	 * {@link #dropConnections()}: requests lost with a failing connection.
	 */
	public void loseRequests() {
		this.losingRequests = true;
	}

	/**
	 * Closes every connection through the proxy, dropping the replies held back; the
	 * proxy goes on accepting and forwarding, so clients reconnect to their sessions
	 * through it.
	 */
	public void dropConnections() {
		for (Socket socket : this.sockets) {
			closeQuietly(socket);
		}
		this.sockets.clear();
		this.losingRequests = false;
		releaseReplies();
	}

	/**
	 * The operation codes of the requests sent since the proxy started or
	 * {@link #forgetRequests()} was last called, pings left out.
	 * @return the codes, in the order the requests were sent
	 */
	public List<Integer> requests() {
		return List.copyOf(this.requests);
	}

	/**
	 * Forgets the requests sent so far.
	 */
	public void forgetRequests() {
		this.requests.clear();
	}

	/**
	 * A started and connected client whose connection goes through this proxy, with a
	 * session of 10 seconds; closed with the proxy.
	 * @return the client
	 * @throws InterruptedException if interrupted while connecting
	 */
	public CuratorFramework newClient() throws InterruptedException {
		return this.clients.connect(connectString(), 10_000);
	}

	@Override
	public void close() throws IOException {
		this.clients.close();
		releaseReplies();
		this.listener.close();
		for (Socket socket : this.sockets) {
			socket.close();
		}
	}

	private void accept() {
		try {
			while (true) {
				Socket client = this.listener.accept();
				Socket upstream = new Socket(this.server.getAddress(), this.server.getPort());
				this.sockets.add(client);
				this.sockets.add(upstream);
				daemon(() -> forwardRequests(client, upstream));
				daemon(() -> forwardReplies(upstream, client));
			}
		}
		catch (IOException ex) {
			// closed
		}
	}

	/**
	 * Forwards the client's frames: a connect request first, then requests whose header
	 * starts with a transaction id and the operation code.
	 */
	private void forwardRequests(Socket client, Socket upstream) {
		try (DataInputStream in = new DataInputStream(client.getInputStream());
				DataOutputStream out = new DataOutputStream(upstream.getOutputStream())) {
			boolean connected = false;
			while (true) {
				byte[] frame = new byte[in.readInt()];
				in.readFully(frame);
				if (connected) {
					int type = ((frame[4] & 0xff) << 24) | ((frame[5] & 0xff) << 16) | ((frame[6] & 0xff) << 8)
							| (frame[7] & 0xff);
					if (type != PING) {
						this.requests.add(type);
					}
					if (type == this.holdFromOpCode) {
						this.holdFromOpCode = -1;
						holdReplies();
					}
				}
				if (connected && this.losingRequests) {
					continue;
				}
				connected = true;
				out.writeInt(frame.length);
				out.write(frame);
				out.flush();
			}
		}
		catch (IOException ex) {
			closeQuietly(client, upstream);
		}
	}

	private void forwardReplies(Socket upstream, Socket client) {
		byte[] buffer = new byte[8192];
		try (InputStream in = upstream.getInputStream(); OutputStream out = client.getOutputStream()) {
			for (int read = in.read(buffer); read >= 0; read = in.read(buffer)) {
				awaitRelease();
				out.write(buffer, 0, read);
				out.flush();
			}
		}
		catch (IOException | InterruptedException ex) {
			closeQuietly(client, upstream);
		}
	}

	private void awaitRelease() throws InterruptedException {
		synchronized (this.gate) {
			while (this.holding) {
				this.gate.wait();
			}
		}
	}

	private static void daemon(Runnable task) {
		Thread thread = new Thread(task, "reply-holding-proxy");
		thread.setDaemon(true);
		thread.start();
	}

	private static void closeQuietly(Socket... sockets) {
		for (Socket socket : sockets) {
			try {
				socket.close();
			}
			catch (IOException ex) {
				// already closed
			}
		}
	}

}
