package dev.zklock.testsupport.process;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import org.jspecify.annotations.Nullable;

/**
 * A Redis server ({@code redis-server}, as Debian packages it) as a process of its own on
 * 127.0.0.1, for the tests and the benchmarks that measure zklock beside locks on Redis.
 * It keeps its data, its {@code redis.conf} and its log ({@code redis.log}) in one
 * directory, and can be killed ({@code kill -9}, which saves nothing), paused and resumed
 * ({@code kill -STOP}, {@code kill -CONT}), and started again on the same port, directory
 * and settings, reading back what its {@link Persistence persistence} kept.
 */
public final class RedisServerProcess implements AutoCloseable {

	private static final String PROGRAM = "redis-server";

	private static final Duration READY_WAIT = Duration.ofSeconds(60);

	private final Path directory;

	private final int port;

	private final Path config;

	private @Nullable Process process;

	private RedisServerProcess(Path directory, int port, Path config) {
		this.directory = directory;
		this.port = port;
		this.config = config;
	}

	/**
	 * Whether this machine has a {@code redis-server} program on its {@code PATH} or in
	 * {@code /usr/bin} ({@code apt-get install redis-server}).
	 * @return whether a Redis server can be started
	 */
	public static boolean isAvailable() {
		return program().isPresent();
	}

	/**
	 * Starts a Redis server on a free port of 127.0.0.1 that keeps its files in the
	 * directory, created if missing, and waits until it answers {@code PING}.
	 * @param directory the server's directory: its data, configuration and log
	 * @param persistence what the server writes to disk, and so what survives a kill
	 * @return the running server
	 * @throws IOException if the directory or the configuration cannot be written
	 * @throws IllegalStateException if there is no {@code redis-server} program, or the
	 * server does not answer within a minute
	 */
	public static RedisServerProcess start(Path directory, Persistence persistence) throws IOException {
		Files.createDirectories(directory);
		int port = freePort();
		List<String> config = new ArrayList<>(List.of("bind 127.0.0.1", "port " + port, "daemonize no", "logfile \"\"",
				"dir \"" + directory.toAbsolutePath() + "\""));
		config.addAll(persistence.settings);
		RedisServerProcess server = new RedisServerProcess(directory, port,
				Files.write(directory.resolve("redis.conf"), config, StandardCharsets.UTF_8));
		server.launch();
		return server;
	}

	private static Optional<Path> program() {
		String path = System.getenv().getOrDefault("PATH", "") + ":/usr/bin:/usr/sbin";
		return Stream.of(path.split(":"))
			.filter((directory) -> !directory.isEmpty())
			.map((directory) -> Path.of(directory, PROGRAM))
			.filter(Files::isExecutable)
			.findFirst();
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	private void launch() {
		Path program = program().orElseThrow(() -> new IllegalStateException(
				"No " + PROGRAM + " program on this machine: apt-get install redis-server"));
		try {
			this.process = new ProcessBuilder(program.toString(), this.config.toAbsolutePath().toString())
				.redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.appendTo(log().toFile()))
				.start();
		}
		catch (IOException ex) {
			throw new UncheckedIOException("Cannot start " + this, ex);
		}
		awaitPong();
	}

	private void awaitPong() {
		long deadline = System.nanoTime() + READY_WAIT.toNanos();
		while (!answersPing()) {
			if (this.process == null || !this.process.isAlive()) {
				throw new IllegalStateException(this + " exited; see " + log());
			}
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(this + " did not answer PING within " + READY_WAIT + "; see " + log());
			}
			try {
				Thread.sleep(50);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException("Interrupted while waiting for " + this, ex);
			}
		}
	}

	/**
	 * Asks {@code PING} in plain RESP: a server that loads its data answers
	 * {@code -LOADING}, not {@code +PONG}.
	 */
	private boolean answersPing() {
		try (Socket socket = new Socket()) {
			socket.connect(new InetSocketAddress(InetAddress.getLoopbackAddress(), this.port), 500);
			socket.setSoTimeout(2000);
			OutputStream output = socket.getOutputStream();
			output.write("*1\r\n$4\r\nPING\r\n".getBytes(StandardCharsets.US_ASCII));
			output.flush();
			InputStream input = socket.getInputStream();
			byte[] expected = "+PONG".getBytes(StandardCharsets.US_ASCII);
			for (byte b : expected) {
				if (input.read() != b) {
					return false;
				}
			}
			return true;
		}
		catch (IOException ex) {
			return false;
		}
	}

	/**
	 * The server's {@code host:port}.
	 * @return {@code 127.0.0.1:port}
	 */
	public String address() {
		return "127.0.0.1:" + this.port;
	}

	/**
	 * The server's port on 127.0.0.1.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * The server's log: what it printed, over every start.
	 * @return the log file
	 */
	public Path log() {
		return this.directory.resolve("redis.log");
	}

	/**
	 * Kills the server at once ({@code kill -9}): it saves nothing, so what it had not
	 * written to disk by its {@link Persistence persistence} is lost. Waits up to ten
	 * seconds for it to be gone.
	 */
	public void kill() {
		Process running = this.process;
		if (running != null) {
			running.destroyForcibly();
			try {
				running.waitFor(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Starts the server again, killing it first if it runs, on the same port, directory
	 * and settings, and waits until it answers {@code PING}, having read its data back.
	 */
	public void restart() {
		kill();
		launch();
	}

	/**
	 * Freezes the server ({@code kill -STOP}): it takes connections, and answers nothing
	 * until {@link #resume()}.
	 * @throws IOException if {@code kill} cannot run
	 * @throws InterruptedException if interrupted while {@code kill} runs
	 */
	public void pause() throws IOException, InterruptedException {
		signal("STOP");
	}

	/**
	 * Lets a paused server run again ({@code kill -CONT}).
	 * @throws IOException if {@code kill} cannot run
	 * @throws InterruptedException if interrupted while {@code kill} runs
	 */
	public void resume() throws IOException, InterruptedException {
		signal("CONT");
	}

	private void signal(String signal) throws IOException, InterruptedException {
		Process running = this.process;
		if (running == null) {
			throw new IllegalStateException(this + " does not run");
		}
		Process kill = new ProcessBuilder("kill", "-" + signal, Long.toString(running.pid())).inheritIO().start();
		if (kill.waitFor() != 0) {
			throw new IllegalStateException("kill -" + signal + " of " + this + " failed");
		}
	}

	/**
	 * Kills the server, paused or not, and deletes its directory.
	 * @throws IOException if the directory cannot be deleted
	 */
	@Override
	public void close() throws IOException {
		kill();
		DirectoryTrees.delete(this.directory);
	}

	@Override
	public String toString() {
		return "Redis server on " + address();
	}

	/**
	 * What a Redis server writes to disk, and so what survives a {@link #kill()}.
	 */
	public enum Persistence {

		/**
		 * As Redis ships ({@code redis.conf} of Redis 7): RDB snapshots only
		 * ({@code save 3600 1 300 100 60 10000}), no append-only file. A write since the
		 * last snapshot is lost in a kill.
		 */
		SHIPPED(List.of("save 3600 1 300 100 60 10000", "appendonly no")),

		/**
		 * The append-only file, fsynced on every write before the reply
		 * ({@code appendonly yes}, {@code appendfsync always}), as ZooKeeper fsyncs its
		 * transaction log: every acknowledged write survives a kill.
		 */
		APPENDFSYNC_ALWAYS(List.of("save 3600 1 300 100 60 10000", "appendonly yes", "appendfsync always"));

		private final List<String> settings;

		Persistence(List<String> settings) {
			this.settings = settings;
		}

	}

}
