package dev.zklock.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import dev.zklock.testsupport.process.JavaCommand;
import dev.zklock.testsupport.process.JvmProcess;
import org.awaitility.Awaitility;
import org.awaitility.core.ConditionTimeoutException;
import org.apache.zookeeper.server.NettyServerCnxnFactory;
import org.apache.zookeeper.server.ZooKeeperServerMain;

/**
 * A real ZooKeeper server that accepts clients only over TLS (a secure client port on
 * 127.0.0.1 and no plain one), requiring a client certificate. It runs in a JVM of its
 * own: ZooKeeper turns a server's {@code ssl.*} settings into JVM-wide system properties,
 * which would otherwise become every client's defaults in the test's JVM and hide whether
 * the client under test carries its own TLS settings.
 */
public final class SecureZooKeeperServer implements AutoCloseable {

	private final JvmProcess process;

	private final int port;

	private SecureZooKeeperServer(JvmProcess process, int port) {
		this.process = process;
		this.port = port;
	}

	/**
	 * Starts a server and waits until it listens.
	 * @param certificates the server's key store and the trust store of client
	 * certificates
	 * @param directory where to keep the server's configuration and data
	 * @return the running server
	 * @throws Exception if it does not start
	 */
	public static SecureZooKeeperServer start(TestCertificates certificates, Path directory) throws Exception {
		int port = freePort();
		Path data = Files.createDirectories(directory.resolve("data"));
		Path configuration = directory.resolve("zoo.cfg");
		Files.writeString(configuration,
				String.join("\n", "tickTime=500", "dataDir=" + data, "secureClientPort=" + port,
						"secureClientPortAddress=127.0.0.1", "admin.enableServer=false",
						"ssl.keyStore.location=" + certificates.serverKeyStore(),
						"ssl.keyStore.password=" + TestCertificates.KEY_STORE_PASSWORD,
						"ssl.trustStore.location=" + certificates.trustStore(),
						"ssl.trustStore.password=" + TestCertificates.TRUST_STORE_PASSWORD, ""));
		JvmProcess process = JvmProcess.start("the secure ZooKeeper server",
				JavaCommand.mainClass(ZooKeeperServerMain.class.getName())
					.jvmOptions("-Dzookeeper.serverCnxnFactory=" + NettyServerCnxnFactory.class.getName())
					.arguments(configuration.toString()),
				ProcessBuilder.Redirect.to(directory.resolve("server.log").toFile()));
		SecureZooKeeperServer server = new SecureZooKeeperServer(process, port);
		server.awaitListening(directory.resolve("server.log"));
		return server;
	}

	private void awaitListening(Path log) throws Exception {
		try {
			Awaitility.await("the secure ZooKeeper server listening")
				.atMost(Duration.ofSeconds(30))
				.pollInterval(Duration.ofMillis(100))
				.until(() -> listens(log));
		}
		catch (ConditionTimeoutException ex) {
			close();
			throw new IllegalStateException(
					"The secure ZooKeeper server did not listen in time: " + Files.readString(log), ex);
		}
	}

	private boolean listens(Path log) throws IOException {
		if (!this.process.isAlive()) {
			throw new IllegalStateException("The secure ZooKeeper server exited: " + Files.readString(log));
		}
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 200);
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	public String connectString() {
		return "127.0.0.1:" + this.port;
	}

	@Override
	public void close() throws InterruptedException {
		this.process.stop(Duration.ofSeconds(10));
	}

}
