package dev.zklock.testsupport.process;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.OutputStream;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.jspecify.annotations.Nullable;

/**
 * One ZooKeeper server of a {@link ZooKeeperEnsemble} in its own JVM on 127.0.0.1,
 * configured by the {@code zoo.cfg} in its directory and logging to {@code zookeeper.log}
 * there, each start appending to it. It can be stopped, killed and started again on the
 * same data and ports. Its {@code srvr} command tells its role.
 */
public final class ZooKeeperServerProcess {

	private static final Duration STOP_GRACE = Duration.ofSeconds(10);

	private final int id;

	private final Path directory;

	private final int clientPort;

	private final JavaCommand command;

	private @Nullable JvmProcess process;

	private boolean stopped;

	/**
	 * Configures a server in its directory, created if missing: its {@code zoo.cfg}, its
	 * data directory and, in an ensemble of several, its {@code myid}. A log of an
	 * earlier server in the directory is deleted.
	 * @param directory the server's directory
	 * @param id the server's id in the ensemble
	 * @param clientPort the port for clients
	 * @param peerLines the {@code server.N} lines of every server of the ensemble, or
	 * none for a standalone server
	 * @param settings how the server runs
	 * @throws IOException if a file cannot be written
	 */
	ZooKeeperServerProcess(Path directory, int id, int clientPort, List<String> peerLines, ServerSettings settings)
			throws IOException {
		this.directory = directory;
		this.id = id;
		this.clientPort = clientPort;
		Path data = Files.createDirectories(dataDirectory());
		List<String> zooCfg = new ArrayList<>(List.of("dataDir=" + data.toAbsolutePath(), "clientPortAddress=127.0.0.1",
				"clientPort=" + clientPort, "admin.enableServer=false", "4lw.commands.whitelist=srvr"));
		String mainClass = "org.apache.zookeeper.server.ZooKeeperServerMain";
		if (!peerLines.isEmpty()) {
			Files.writeString(data.resolve("myid"), Integer.toString(id));
			zooCfg.addAll(List.of("initLimit=10", "syncLimit=5"));
			zooCfg.addAll(peerLines);
			mainClass = "org.apache.zookeeper.server.quorum.QuorumPeerMain";
		}
		zooCfg.addAll(settings.zooCfg());
		Path config = Files.write(directory.resolve("zoo.cfg"), zooCfg, StandardCharsets.UTF_8);
		this.command = JavaCommand.mainClass(mainClass)
			.jvmOptions(settings.jvmOptions())
			.arguments(config.toAbsolutePath().toString());
		Files.deleteIfExists(log());
	}

	/**
	 * The server's id in its ensemble, from 1.
	 * @return the id
	 */
	public int id() {
		return this.id;
	}

	/**
	 * The port on 127.0.0.1 where the server takes clients.
	 * @return the client port
	 */
	public int clientPort() {
		return this.clientPort;
	}

	/**
	 * The server's {@code host:port} for clients.
	 * @return the address
	 */
	public String address() {
		return "127.0.0.1:" + this.clientPort;
	}

	/**
	 * The server's data directory ({@code dataDir}).
	 * @return the data directory
	 */
	public Path dataDirectory() {
		return this.directory.resolve("data");
	}

	/**
	 * The server's log: what its JVM printed, over every start.
	 * @return the log file
	 */
	public Path log() {
		return this.directory.resolve("zookeeper.log");
	}

	/**
	 * Starts the server's JVM; it serves once {@link #mode()} answers.
	 */
	public void start() {
		this.process = JvmProcess.start(toString(), this.command, ProcessBuilder.Redirect.appendTo(log().toFile()));
		this.stopped = false;
	}

	/**
	 * Whether the server's JVM runs.
	 * @return whether it runs
	 */
	public boolean isRunning() {
		return this.process != null && this.process.isAlive();
	}

	/**
	 * Whether the server was started and not stopped or killed since: it should run, and
	 * has exited on its own if it does not.
	 * @return whether it was started
	 */
	boolean isStarted() {
		return this.process != null && !this.stopped;
	}

	/**
	 * Kills the server at once, like {@code kill -9}.
	 */
	public void kill() {
		this.stopped = true;
		if (this.process != null) {
			this.process.kill();
		}
	}

	/**
	 * Freezes the server ({@code kill -STOP}): its connections stay open and nothing
	 * answers, as in a partition or a long pause.
	 * @throws IOException if the signal cannot be sent
	 * @throws InterruptedException if interrupted while sending it
	 */
	public void pause() throws IOException, InterruptedException {
		if (this.process != null) {
			this.process.pause();
		}
	}

	/**
	 * Lets a frozen server run again ({@code kill -CONT}).
	 * @throws IOException if the signal cannot be sent
	 * @throws InterruptedException if interrupted while sending it
	 */
	public void resume() throws IOException, InterruptedException {
		if (this.process != null) {
			this.process.resume();
		}
	}

	/**
	 * Stops the server with {@code SIGTERM}, killing it if it does not end in ten
	 * seconds.
	 * @throws InterruptedException if interrupted while waiting for it to end
	 */
	public void stop() throws InterruptedException {
		this.stopped = true;
		if (this.process != null) {
			this.process.stop(STOP_GRACE);
		}
	}

	/**
	 * The server's role, as its {@code srvr} command tells it.
	 * @return {@code standalone}, {@code leader} or {@code follower}, or {@code null}
	 * while the server does not serve clients (not started, stopped, or without a quorum)
	 * @throws IllegalStateException if the server exited without being stopped or killed
	 */
	public @Nullable String mode() {
		if (isStarted() && !isRunning()) {
			throw new IllegalStateException(this + " exited; see " + log());
		}
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.clientPort), 500);
			socket.setSoTimeout(2000);
			OutputStream output = socket.getOutputStream();
			output.write("srvr".getBytes(StandardCharsets.US_ASCII));
			output.flush();
			BufferedReader input = new BufferedReader(
					new InputStreamReader(socket.getInputStream(), StandardCharsets.US_ASCII));
			for (String line = input.readLine(); line != null; line = input.readLine()) {
				if (line.startsWith("Mode: ")) {
					return line.substring("Mode: ".length()).trim();
				}
			}
			return null;
		}
		catch (IOException ex) {
			return null;
		}
	}

	@Override
	public String toString() {
		return "ZooKeeper server " + this.id + " on " + address();
	}

}
