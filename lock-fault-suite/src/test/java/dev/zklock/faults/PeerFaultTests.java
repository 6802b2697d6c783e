package dev.zklock.faults;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.Statement;
import java.time.Duration;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import dev.zklock.faults.PeerHolderProcess.Line;
import dev.zklock.faults.PeerLockHolder.PeerLock;
import dev.zklock.testsupport.process.PostgresServerProcess;
import dev.zklock.testsupport.process.RedisServerProcess;
import dev.zklock.testsupport.process.RedisServerProcess.Persistence;
import dev.zklock.testsupport.process.ServerSettings;
import dev.zklock.testsupport.process.ZooKeeperEnsemble;
import dev.zklock.testsupport.process.ZooKeeperServerProcess;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.EnumSource;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.core.io.ClassPathResource;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.init.ScriptUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Issue 28's fault table: zklock beside Redisson's {@code RLock} and {@code RFencedLock}
 * on Redis, Spring Integration's {@code JdbcLockRegistry} and ShedLock on PostgreSQL,
 * each with its library's defaults, under three faults: the holder paused past its lease
 * (or session), the holder killed, the server killed and restarted. Every holder and
 * waiter is a {@link PeerLockHolder} in a JVM of its own; every run appends its row to
 * {@code target/peer-faults.md} ({@link PeerFaultTable}) and asserts what the row says.
 * Runs one at a time: the pauses last as long as the leases (30 s for most).
 */
class PeerFaultTests {

	private static final Duration START = Duration.ofMinutes(2);

	/**
	 * ZooKeeper with its own defaults (tickTime 3 s, sessions of 6 to 60 s), so the
	 * starter's 30 s session is granted as asked.
	 */
	private static final ServerSettings ZOOKEEPER = new ServerSettings(
			List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData"), List.of());

	private static final Duration ZKLOCK_SESSION = Duration.ofSeconds(30);

	private static final Duration REDISSON_WATCHDOG = Duration.ofSeconds(30);

	/**
	 * How long a third caller tries while the second holds: ShedLock's retries (every 100
	 * ms) get in well within it; the others wait for the second's release.
	 */
	private static final Duration THIRD_CALLER_WAIT = Duration.ofSeconds(5);

	private static final PeerFaultTable table = new PeerFaultTable();

	private static final AtomicInteger runs = new AtomicInteger();

	@TempDir
	static Path directory;

	private static FencedStore store;

	private static ZooKeeperEnsemble zooKeeper;

	private static PostgresServerProcess postgres;

	@BeforeAll
	static void startStore() throws Exception {
		store = new FencedStore();
	}

	@AfterAll
	static void stopServers() throws Exception {
		store.close();
		if (zooKeeper != null) {
			zooKeeper.close();
		}
		if (postgres != null) {
			postgres.close();
		}
	}

	@ParameterizedTest
	@EnumSource(PeerLock.class)
	void holderPausedPastItsLease(PeerLock library) throws Exception {
		String key = "paused-" + runs.incrementAndGet();
		try (Server server = server(library, Persistence.SHIPPED);
				PeerHolderProcess first = holder("first-" + key, library, server, key)) {
			long firstToken = held(first);
			try (PeerHolderProcess second = holder("second-" + key, library, server, key)) {
				second.await("WAITING", START);
				long pausedAt = System.nanoTime();
				first.pause();
				Line overtaking = second.await("HELD", patience(library));
				Duration pausedFor = since(pausedAt, overtaking.nanos());
				String secondWrite = second.ask("write 2", "WRITE", START);
				first.resume();
				long resumedAt = System.nanoTime();
				String validity = validityOnceSettled(first);
				Duration toldAfter = since(resumedAt, System.nanoTime());
				String lateWrite = first.ask("write 1", "WRITE", START);
				String release = first.ask("release", "RELEASED", START);
				Optional<Boolean> thirdIn = thirdCallerInWhileSecondHolds(library, second, server, key);
				table.row(library.title(), "holder paused (SIGSTOP) past its lease/session",
						String.format(
								"second holder in after %.1f s while the first was paused (lease %s); first, resumed: "
										+ "%s (within %.1f s), late write %s (tokens %s, %s), release: %s; %s",
								seconds(pausedFor), lease(library), validity, seconds(toldAfter), lateWrite,
								token(firstToken), overtaking.rest("HELD"), release,
								thirdIn
									.map((in) -> in ? "after that release a third caller got in WHILE THE SECOND HELD"
											: "a third caller then waited for the second's release")
									.orElse("no third caller (the second's 10 s TTL, never renewed, would let it in)")),
						pausedFor);
				assertFenced(library, secondWrite, lateWrite);
				assertThat(release).as("release of the paused holder").startsWith(pausedRelease(library));
				thirdIn.ifPresent((in) -> assertThat(in).as("a third caller in while the second holds")
					.isEqualTo(library == PeerLock.SHEDLOCK));
				if (library == PeerLock.ZKLOCK) {
					assertThat(validity).isEqualTo("isValid()=false");
				}
			}
		}
	}

	@ParameterizedTest
	@EnumSource(PeerLock.class)
	void holderKilled(PeerLock library) throws Exception {
		String key = "killed-" + runs.incrementAndGet();
		try (Server server = server(library, Persistence.SHIPPED);
				PeerHolderProcess first = holder("first-" + key, library, server, key);
				PeerHolderProcess second = heldThenWaiter(first, "second-" + key, library, server, key)) {
			second.await("WAITING", START);
			long killedAt = System.nanoTime();
			first.kill();
			Line overtaking = second.await("HELD", patience(library));
			Duration after = since(killedAt, overtaking.nanos());
			String release = second.ask("release", "RELEASED", START);
			table.row(library.title(), "holder's process killed (kill -9)",
					String.format("next holder in %.1f s after the kill (lease %s); its release: %s", seconds(after),
							lease(library), release),
					after);
			assertThat(release).isEqualTo("ok");
		}
	}

	static Stream<Arguments> restarts() {
		return Stream.of(Arguments.of(PeerLock.ZKLOCK, Persistence.SHIPPED),
				Arguments.of(PeerLock.REDISSON_RLOCK, Persistence.SHIPPED),
				Arguments.of(PeerLock.REDISSON_RLOCK, Persistence.APPENDFSYNC_ALWAYS),
				Arguments.of(PeerLock.REDISSON_RFENCEDLOCK, Persistence.SHIPPED),
				Arguments.of(PeerLock.REDISSON_RFENCEDLOCK, Persistence.APPENDFSYNC_ALWAYS),
				Arguments.of(PeerLock.JDBC_LOCK_REGISTRY, Persistence.SHIPPED),
				Arguments.of(PeerLock.SHEDLOCK, Persistence.SHIPPED));
	}

	@ParameterizedTest
	@MethodSource("restarts")
	void serverKilledAndRestarted(PeerLock library, Persistence persistence) throws Exception {
		String key = "restarted-" + runs.incrementAndGet();
		try (Server server = server(library, persistence);
				PeerHolderProcess first = holder("first-" + key, library, server, key);
				PeerHolderProcess second = heldThenWaiter(first, "second-" + key, library, server, key)) {
			long firstToken = first.token();
			second.await("WAITING", START);
			long crashedAt = System.nanoTime();
			server.crash();
			Duration down = since(crashedAt, System.nanoTime());
			Duration observe = lease(library).plusSeconds(5);
			Optional<Line> overtaking = second.next("HELD", observe.minus(down));
			String validity = first.ask("valid", "VALID", START);
			String secondWrite = "none";
			if (overtaking.isPresent()) {
				secondWrite = second.ask("write 2", "WRITE", START);
			}
			String firstWrite = first.ask("write 1", "WRITE", START);
			String release = first.ask("release", "RELEASED", START);
			Line next = overtaking.orElse(null);
			if (next == null) {
				next = second.await("HELD", START);
			}
			second.ask("release", "RELEASED", START);
			Duration measured = since(crashedAt, overtaking.map(Line::nanos).orElse(next.nanos()));
			String waiter = overtaking.isPresent()
					? String.format("the waiter got the lock %.1f s after the crash WHILE THE FIRST STILL HELD IT "
							+ "(tokens %s, %s)", seconds(measured), token(firstToken), next.rest("HELD"))
					: String.format("the waiter did not get the lock within %.0f s, only %.1f s after the crash, "
							+ "once the first released", seconds(observe), seconds(measured));
			table.row(library.title() + on(library, persistence), "server killed (kill -9) and restarted",
					String.format(
							"server back in %.1f s; %s; the waiter's exceptions meanwhile (it tried again): %s; "
									+ "the first holder: %s, its write %s, its release: %s",
							seconds(down), waiter, second.failures(), validity, firstWrite, release),
					measured);
			assertThat(overtaking.isPresent()).as("waiter in while the first holds")
				.isEqualTo(overtakesAfterRestart(library, persistence));
			assertThat(release).as("release of the first holder").startsWith(restartRelease(library, persistence));
			if (overtaking.isPresent() && library.hasToken()) {
				assertThat(secondWrite).isEqualTo("ACCEPTED");
			}
		}
	}

	/**
	 * What each run is expected to show; the rows say the same.
	 */
	private static boolean overtakesAfterRestart(PeerLock library, Persistence persistence) {
		return switch (library) {
			case ZKLOCK -> false;
			case REDISSON_RLOCK, REDISSON_RFENCEDLOCK -> persistence == Persistence.SHIPPED;
			// Leases that nobody renews: the waiter gets in once they pass, crash or not
			case JDBC_LOCK_REGISTRY, SHEDLOCK -> true;
		};
	}

	private static String restartRelease(PeerLock library, Persistence persistence) {
		return switch (library) {
			case ZKLOCK -> "LockLostException";
			case REDISSON_RLOCK, REDISSON_RFENCEDLOCK ->
				(persistence == Persistence.SHIPPED) ? "IllegalMonitorStateException" : "ok";
			case JDBC_LOCK_REGISTRY -> "ConcurrentModificationException";
			case SHEDLOCK -> "ok";
		};
	}

	private static String pausedRelease(PeerLock library) {
		return switch (library) {
			case ZKLOCK -> "LockLostException";
			case REDISSON_RLOCK, REDISSON_RFENCEDLOCK -> "IllegalMonitorStateException";
			case JDBC_LOCK_REGISTRY -> "ConcurrentModificationException";
			case SHEDLOCK -> "ok";
		};
	}

	private static void assertFenced(PeerLock library, String secondWrite, String lateWrite) {
		if (library.hasToken()) {
			assertThat(secondWrite).as("write of the next holder").isEqualTo("ACCEPTED");
			assertThat(lateWrite).as("late write of the paused holder").isEqualTo("REJECTED");
		}
		else {
			assertThat(lateWrite).as("late write of the paused holder").isEqualTo("no-token");
		}
	}

	/**
	 * After the paused holder's release, starts a third caller while the second holds,
	 * and says whether it gets the lock within {@link #THIRD_CALLER_WAIT} (ShedLock's
	 * release frees the lock by its name, whoever holds it); then releases the second and
	 * the third. Empty for the JDBC registry, whose second holder's lease of 10 s, which
	 * it never renews, could pass meanwhile on a busy machine: the answer would depend on
	 * timing.
	 */
	private static Optional<Boolean> thirdCallerInWhileSecondHolds(PeerLock library, PeerHolderProcess second,
			Server server, String key) throws Exception {
		if (library == PeerLock.JDBC_LOCK_REGISTRY) {
			second.ask("release", "RELEASED", START);
			return Optional.empty();
		}
		try (PeerHolderProcess third = holder("third-" + key, library, server, key)) {
			third.await("WAITING", START);
			Optional<Line> in = third.next("HELD", THIRD_CALLER_WAIT);
			second.ask("release", "RELEASED", START);
			if (in.isEmpty()) {
				third.await("HELD", START);
			}
			third.ask("release", "RELEASED", START);
			return Optional.of(in.isPresent());
		}
	}

	/**
	 * Asks a resumed holder whether it holds until its answer is no longer "true" (a
	 * ZooKeeper client learns of its expired session once it runs again), for up to
	 * thirty seconds; the last answer.
	 */
	private static String validityOnceSettled(PeerHolderProcess holder) throws InterruptedException {
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		String answer = holder.ask("valid", "VALID", START);
		while (answer.endsWith("true") && System.nanoTime() - deadline < 0) {
			answer = holder.ask("valid", "VALID", START);
		}
		return answer;
	}

	private static long held(PeerHolderProcess holder) throws InterruptedException {
		holder.await("WAITING", START);
		return holder.heldToken(holder.await("HELD", START));
	}

	/**
	 * Waits until the first holder holds, and only then starts the waiter, so that the
	 * first is the one that holds.
	 */
	private static PeerHolderProcess heldThenWaiter(PeerHolderProcess first, String name, PeerLock library,
			Server server, String key) throws Exception {
		held(first);
		return holder(name, library, server, key);
	}

	private static PeerHolderProcess holder(String name, PeerLock library, Server server, String key) throws Exception {
		return PeerHolderProcess.start(name, library, server.address(), key, store, directory);
	}

	/**
	 * How long a waiter may wait for a lease to pass: well above it, on a busy machine.
	 */
	private static Duration patience(PeerLock library) {
		return lease(library).multipliedBy(3).plusSeconds(60);
	}

	private static Duration lease(PeerLock library) {
		return switch (library) {
			case ZKLOCK -> ZKLOCK_SESSION;
			case REDISSON_RLOCK, REDISSON_RFENCEDLOCK -> REDISSON_WATCHDOG;
			case JDBC_LOCK_REGISTRY -> JdbcLockRegistry.DEFAULT_TTL;
			case SHEDLOCK -> PeerLockHolder.SHEDLOCK_LOCK_AT_MOST_FOR;
		};
	}

	private static String on(PeerLock library, Persistence persistence) {
		return switch (library) {
			case ZKLOCK -> " on ZooKeeper";
			case REDISSON_RLOCK, REDISSON_RFENCEDLOCK -> " on Redis, " + persistence;
			case JDBC_LOCK_REGISTRY, SHEDLOCK -> " on PostgreSQL";
		};
	}

	private static String token(long token) {
		return (token >= 0) ? Long.toString(token) : "no token";
	}

	private static Duration since(long startNanos, long endNanos) {
		return Duration.ofNanos(endNanos - startNanos);
	}

	private static double seconds(Duration duration) {
		return duration.toMillis() / 1000.0;
	}

	private static Server server(PeerLock library, Persistence persistence) throws Exception {
		return switch (library) {
			case ZKLOCK -> zooKeeperServer();
			case REDISSON_RLOCK, REDISSON_RFENCEDLOCK -> redisServer(persistence);
			case JDBC_LOCK_REGISTRY, SHEDLOCK -> postgresDatabase();
		};
	}

	private static Server zooKeeperServer() throws Exception {
		if (zooKeeper == null) {
			zooKeeper = ZooKeeperEnsemble.startServing(directory.resolve("zookeeper"), 1, ZOOKEEPER, START);
		}
		ZooKeeperServerProcess only = zooKeeper.servers().get(0);
		return new Server(zooKeeper.connectString(), () -> {
			only.kill();
			only.start();
			zooKeeper.awaitServing(START);
		}, () -> {
		});
	}

	private static Server redisServer(Persistence persistence) throws Exception {
		assumeTrue(RedisServerProcess.isAvailable(), "no redis-server: apt-get install redis-server");
		RedisServerProcess redis = RedisServerProcess.start(directory.resolve("redis-" + runs.get()), persistence);
		return new Server(redis.address(), redis::restart, redis::close);
	}

	/**
	 * A new database on the PostgreSQL server, with the tables of both libraries: Spring
	 * Integration's {@code INT_LOCK} from the schema in its jar, ShedLock's
	 * {@code shedlock} as its documentation gives it.
	 */
	private static Server postgresDatabase() throws Exception {
		assumeTrue(PostgresServerProcess.isAvailable(), "PostgreSQL's programs are not available here");
		if (postgres == null) {
			postgres = PostgresServerProcess.start(Files.createTempDirectory("zklock-peer-postgres-"),
					PostgresServerProcess.Durability.SHIPPED);
		}
		String database = "peers_" + runs.get();
		postgres.createDatabase(database);
		String url = postgres.jdbcUrl(database);
		try (Connection connection = DriverManager.getConnection(url);
				Statement statement = connection.createStatement()) {
			ScriptUtils.executeSqlScript(connection,
					new ClassPathResource("org/springframework/integration/jdbc/schema-postgresql.sql"));
			statement.execute("CREATE TABLE shedlock (name VARCHAR(64) NOT NULL, lock_until TIMESTAMP NOT NULL, "
					+ "locked_at TIMESTAMP NOT NULL, locked_by VARCHAR(255) NOT NULL, PRIMARY KEY (name))");
		}
		PostgresServerProcess server = postgres;
		return new Server(url, server::restart, () -> {
		});
	}

	/**
	 * A server of the run: where the holders connect, how it crashes (killed, then
	 * started again on the same port and data, serving), and what ends it.
	 */
	private record Server(String address, Crash crasher, AutoCloseable end) implements AutoCloseable {

		void crash() throws Exception {
			this.crasher.crash();
		}

		@Override
		public void close() throws Exception {
			this.end.close();
		}

	}

	@FunctionalInterface
	private interface Crash {

		void crash() throws Exception;

	}

}
