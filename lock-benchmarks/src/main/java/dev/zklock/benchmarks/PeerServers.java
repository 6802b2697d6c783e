package dev.zklock.benchmarks;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.SQLException;
import java.sql.Statement;
import java.util.ArrayList;
import java.util.Collection;
import java.util.EnumSet;
import java.util.List;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Collectors;

import dev.zklock.testsupport.process.PostgresServerProcess;
import dev.zklock.testsupport.process.RedisServerProcess;
import org.jspecify.annotations.Nullable;

/**
 * The servers of other kinds than ZooKeeper that a benchmark run needs for its peers,
 * each started only when a selected variant locks on it, in a directory of its own (the
 * run's, or for PostgreSQL a temporary one that its close deletes): a Redis server as
 * Redis ships, one that fsyncs every write, and a PostgreSQL server with its shipped
 * durability, whose database {@code bench} holds the lock tables of Spring Integration's
 * JDBC registry ({@code INT_LOCK}, as the registry's jar defines it) and of ShedLock
 * ({@code shedlock}, as ShedLock's documentation defines it).
 */
final class PeerServers implements AutoCloseable {

	private static final String DATABASE = "bench";

	private static final String REGISTRY_SCHEMA = "/org/springframework/integration/jdbc/schema-postgresql.sql";

	private static final String SHEDLOCK_TABLE = "CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, "
			+ "lock_until TIMESTAMP NOT NULL, locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, "
			+ "PRIMARY KEY (name))";

	private final List<AutoCloseable> started = new ArrayList<>();

	private @Nullable RedisServerProcess redis;

	private @Nullable RedisServerProcess redisFsync;

	private @Nullable PostgresServerProcess postgresql;

	private PeerServers() {
	}

	/**
	 * The servers that the variants need.
	 * @param variants the variants of the run
	 * @return the servers, in the order of {@link PeerServer}
	 */
	static Set<PeerServer> neededBy(Collection<Variant> variants) {
		Set<PeerServer> needed = EnumSet.noneOf(PeerServer.class);
		variants.forEach((variant) -> variant.library().peerServer().ifPresent(needed::add));
		return needed;
	}

	/**
	 * Whether the programs of a server are found on this machine.
	 * @param server the server
	 * @return whether it can be started
	 */
	static boolean isAvailable(PeerServer server) {
		return (server == PeerServer.POSTGRESQL) ? PostgresServerProcess.isAvailable()
				: RedisServerProcess.isAvailable();
	}

	/**
	 * Starts the servers that the variants need and waits until they serve.
	 * @param directory the directory of the servers' own directories
	 * @param variants the variants of the run
	 * @return the serving servers; none when no variant is a peer
	 * @throws Exception if a server does not start
	 */
	static PeerServers start(Path directory, Collection<Variant> variants) throws Exception {
		PeerServers servers = new PeerServers();
		try {
			for (PeerServer server : neededBy(variants)) {
				servers.start(directory, server);
			}
			return servers;
		}
		catch (Exception | Error ex) {
			servers.close();
			throw ex;
		}
	}

	private void start(Path directory, PeerServer server) throws Exception {
		switch (server) {
			case REDIS -> this.redis = started(
					RedisServerProcess.start(directory.resolve("redis"), RedisServerProcess.Persistence.SHIPPED));
			case REDIS_FSYNC -> this.redisFsync = started(RedisServerProcess.start(directory.resolve("redis-fsync"),
					RedisServerProcess.Persistence.APPENDFSYNC_ALWAYS));
			case POSTGRESQL -> {
				// In a temporary directory: run by root, PostgreSQL runs as 'nobody', who
				// may not reach the run's directory in a private checkout
				PostgresServerProcess postgres = started(
						PostgresServerProcess.start(Files.createTempDirectory("zklock-benchmark-postgresql-"),
								PostgresServerProcess.Durability.SHIPPED));
				this.postgresql = postgres;
				postgres.createDatabase(DATABASE);
				createLockTables(postgres.jdbcUrl(DATABASE));
			}
		}
	}

	private <S extends AutoCloseable> S started(S server) {
		this.started.add(server);
		return server;
	}

	private static void createLockTables(String jdbcUrl) throws SQLException, IOException {
		try (Connection connection = DriverManager.getConnection(jdbcUrl);
				Statement statement = connection.createStatement()) {
			statement.execute(registryTable());
			statement.execute(SHEDLOCK_TABLE);
		}
	}

	/**
	 * The {@code CREATE TABLE INT_LOCK} statement of the registry's own PostgreSQL
	 * schema, the one of its tables that the lock registry uses.
	 */
	private static String registryTable() throws IOException {
		try (InputStream schema = PeerServers.class.getResourceAsStream(REGISTRY_SCHEMA)) {
			if (schema == null) {
				throw new IllegalStateException(
						"Spring Integration's " + REGISTRY_SCHEMA + " is not on the class path");
			}
			Matcher table = Pattern.compile("CREATE TABLE INT_LOCK\\s*\\(.*?\\);", Pattern.DOTALL)
				.matcher(new String(schema.readAllBytes(), StandardCharsets.UTF_8));
			if (!table.find()) {
				throw new IllegalStateException(REGISTRY_SCHEMA + " defines no INT_LOCK table");
			}
			return table.group().substring(0, table.group().length() - 1);
		}
	}

	/**
	 * The endpoints of the run: the ZooKeeper connect string and these servers.
	 * @param zooKeeper the ZooKeeper connect string
	 * @return the endpoints
	 */
	RunEndpoints endpoints(String zooKeeper) {
		return new RunEndpoints(zooKeeper, (this.redis != null) ? this.redis.address() : null,
				(this.redisFsync != null) ? this.redisFsync.address() : null,
				(this.postgresql != null) ? this.postgresql.jdbcUrl(DATABASE) : null);
	}

	/**
	 * The servers and where they listen, for the console; empty when none runs.
	 * @return the description
	 */
	String describe() {
		List<String> servers = new ArrayList<>();
		if (this.redis != null) {
			servers.add("Redis as it ships on " + this.redis.address());
		}
		if (this.redisFsync != null) {
			servers.add("Redis with appendfsync always on " + this.redisFsync.address());
		}
		if (this.postgresql != null) {
			servers.add("PostgreSQL with its shipped durability at " + this.postgresql.jdbcUrl(DATABASE));
		}
		return servers.stream().collect(Collectors.joining("; "));
	}

	/**
	 * Stops the servers and deletes their data.
	 * @throws Exception if a server cannot be stopped
	 */
	@Override
	public void close() throws Exception {
		Exception failure = null;
		for (AutoCloseable server : this.started) {
			try {
				server.close();
			}
			catch (Exception ex) {
				if (failure == null) {
					failure = ex;
				}
				else {
					failure.addSuppressed(ex);
				}
			}
		}
		this.started.clear();
		if (failure != null) {
			throw failure;
		}
	}

}
