package dev.zklock.faults;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.io.UncheckedIOException;
import java.net.URI;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.Optional;
import java.util.concurrent.locks.Lock;
import java.util.function.Supplier;

import dev.zklock.LockTemplate;
import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;
import org.postgresql.ds.PGSimpleDataSource;
import org.redisson.Redisson;
import org.redisson.api.RFencedLock;
import org.redisson.api.RLock;
import org.redisson.api.RedissonClient;
import org.redisson.config.Config;

import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * A lock holder of the {@link PeerFaultTests fault table} in a JVM of its own: it takes
 * one key's lock with one {@link PeerLock library}, each with its own defaults, waiting
 * as long as it takes, and then obeys the test's commands on its standard input, all on
 * its main thread (Redisson's locks and Spring Integration's belong to the thread that
 * took them).
 * <p>
 * Arguments: the library, the server's address ({@code host:port} of ZooKeeper or Redis,
 * or a JDBC URL), the key, and the address of the {@link FencedStore}. It prints
 * {@code PEER HELD <token>} once it holds the lock ({@code -} without a token); commands:
 * {@code write <value>} writes to the store with the lock's token
 * ({@code PEER WRITE ACCEPTED}, {@code REJECTED}, or {@code no-token}), {@code valid}
 * prints what the library says of the hold ({@code PEER VALID ...}), and {@code release}
 * releases the lock ({@code PEER RELEASED ok} or the exception's type and message head)
 * and ends the process. An exception while it waits for the lock is said as
 * {@code PEER FAILED <type: message head>}, and it tries again. Every other line of its
 * output is the libraries' logging.
 */
public final class PeerLockHolder {

	static final String PREFIX = "PEER ";

	/**
	 * ShedLock has no default lease: {@code lockAtMostFor} is required. 30 s is what a
	 * user picks for a task of seconds, and Redisson's watchdog lease too.
	 */
	static final Duration SHEDLOCK_LOCK_AT_MOST_FOR = Duration.ofSeconds(30);

	/**
	 * How often a ShedLock caller tries again: ShedLock never waits, it skips.
	 */
	private static final Duration SHEDLOCK_RETRY = Duration.ofMillis(100);

	private final BufferedReader commands = new BufferedReader(
			new InputStreamReader(System.in, StandardCharsets.UTF_8));

	private final FencedStoreClient store;

	private final String key;

	private PeerLockHolder(FencedStoreClient store, String key) {
		this.store = store;
		this.key = key;
	}

	public static void main(String[] args) throws Exception {
		PeerLock library = PeerLock.valueOf(args[0]);
		PeerLockHolder holder = new PeerLockHolder(new FencedStoreClient(URI.create(args[3])), args[2]);
		switch (library) {
			case ZKLOCK -> holder.zklock(args[1]);
			case REDISSON_RLOCK, REDISSON_RFENCEDLOCK -> holder.redisson(library, args[1]);
			case JDBC_LOCK_REGISTRY -> holder.jdbcLockRegistry(args[1]);
			case SHEDLOCK -> holder.shedLock(args[1]);
		}
		System.exit(0);
	}

	private void zklock(String connectString) {
		try (ConfigurableApplicationContext context = new SpringApplicationBuilder(
				FaultWorker.WorkerConfiguration.class)
			.web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.run("--distributed-lock.zookeeper.connect-string=" + connectString)) {
			LockTemplate template = context.getBean(LockTemplate.class);
			say("WAITING");
			boolean[] held = new boolean[1];
			while (!held[0]) {
				try {
					template.execute(this.key, Duration.ofMinutes(10), (handle) -> {
						held[0] = true;
						obey(handle.fencingToken(), () -> "isValid()=" + handle.isValid());
						return null;
					});
					say("RELEASED ok");
				}
				catch (RuntimeException ex) {
					say((held[0] ? "RELEASED " : "FAILED ") + describe(ex));
				}
			}
		}
	}

	private void redisson(PeerLock library, String address) {
		Config config = new Config();
		config.useSingleServer().setAddress("redis://" + address);
		RedissonClient redisson = Redisson.create(config);
		try {
			long token = -1;
			RLock lock;
			say("WAITING");
			if (library == PeerLock.REDISSON_RFENCEDLOCK) {
				RFencedLock fenced = redisson.getFencedLock(this.key);
				token = retrying(fenced::lockAndGetToken);
				lock = fenced;
			}
			else {
				lock = redisson.getLock(this.key);
				retrying(() -> {
					lock.lock();
					return -1L;
				});
			}
			RLock held = lock;
			obey(token, () -> "isHeldByCurrentThread=" + held.isHeldByCurrentThread());
			release(lock::unlock);
		}
		finally {
			redisson.shutdown();
		}
	}

	private void jdbcLockRegistry(String jdbcUrl) {
		PGSimpleDataSource dataSource = dataSource(jdbcUrl);
		DefaultLockRepository repository = new DefaultLockRepository(dataSource);
		repository.setTransactionManager(new DataSourceTransactionManager(dataSource));
		repository.afterPropertiesSet();
		repository.afterSingletonsInstantiated();
		repository.start();
		Lock lock = new JdbcLockRegistry(repository).obtain(this.key);
		say("WAITING");
		retrying(() -> {
			lock.lock();
			return -1L;
		});
		obey(-1, () -> "isAcquired=" + repository.isAcquired(this.key));
		release(lock::unlock);
	}

	private void shedLock(String jdbcUrl) throws InterruptedException {
		JdbcTemplateLockProvider provider = new JdbcTemplateLockProvider(dataSource(jdbcUrl));
		Optional<SimpleLock> lock = Optional.empty();
		say("WAITING");
		while (lock.isEmpty()) {
			try {
				lock = provider
					.lock(new LockConfiguration(Instant.now(), this.key, SHEDLOCK_LOCK_AT_MOST_FOR, Duration.ZERO));
			}
			catch (RuntimeException ex) {
				say("FAILED " + describe(ex));
			}
			if (lock.isEmpty()) {
				Thread.sleep(SHEDLOCK_RETRY.toMillis());
			}
		}
		obey(-1, () -> "no way to ask");
		release(lock.get()::unlock);
	}

	/**
	 * Takes a lock, trying again after every exception, as a caller that must have the
	 * lock does; each exception is said as {@code FAILED}.
	 */
	private static long retrying(Supplier<Long> acquisition) {
		while (true) {
			try {
				return acquisition.get();
			}
			catch (RuntimeException ex) {
				say("FAILED " + describe(ex));
			}
		}
	}

	private static PGSimpleDataSource dataSource(String jdbcUrl) {
		PGSimpleDataSource dataSource = new PGSimpleDataSource();
		dataSource.setURL(jdbcUrl);
		return dataSource;
	}

	/**
	 * Says the lock is held, then obeys commands until {@code release}.
	 */
	private void obey(long token, ValidityQuestion validity) {
		say("HELD " + ((token >= 0) ? token : "-"));
		try {
			for (String command = this.commands.readLine(); command != null
					&& !command.equals("release"); command = this.commands.readLine()) {
				if (command.startsWith("write ")) {
					say("WRITE "
							+ ((token >= 0) ? (this.store.write(this.key, token, Long.parseLong(command.substring(6)))
									? "ACCEPTED" : "REJECTED") : "no-token"));
				}
				else if (command.equals("valid")) {
					say("VALID " + answer(validity));
				}
			}
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static String answer(ValidityQuestion validity) {
		try {
			return validity.ask();
		}
		catch (RuntimeException ex) {
			return describe(ex);
		}
	}

	private static void release(Runnable unlock) {
		try {
			unlock.run();
			say("RELEASED ok");
		}
		catch (RuntimeException ex) {
			say("RELEASED " + describe(ex));
		}
	}

	/**
	 * An exception's type and the head of its message, one line.
	 */
	static String describe(Throwable ex) {
		String message = String.valueOf(ex.getMessage()).replaceAll("\\s+", " ");
		return ex.getClass().getSimpleName() + ": "
				+ ((message.length() > 90) ? message.substring(0, 90) + "…" : message);
	}

	private static void say(String line) {
		System.out.println(PREFIX + line);
		System.out.flush();
	}

	/**
	 * What a library can say of a hold it gave.
	 */
	@FunctionalInterface
	private interface ValidityQuestion {

		String ask();

	}

	/**
	 * The locks of the fault table.
	 */
	enum PeerLock {

		/**
		 * zklock's {@link LockTemplate}, with the starter's defaults.
		 */
		ZKLOCK("zklock LockTemplate"),

		/**
		 * Redisson's {@code RLock} ({@code getLock}), lock() without a lease: the
		 * watchdog.
		 */
		REDISSON_RLOCK("Redisson RLock"),

		/**
		 * Redisson's {@code RFencedLock} ({@code getFencedLock}), lockAndGetToken().
		 */
		REDISSON_RFENCEDLOCK("Redisson RFencedLock"),

		/**
		 * Spring Integration's {@code JdbcLockRegistry} over
		 * {@code DefaultLockRepository}.
		 */
		JDBC_LOCK_REGISTRY("Spring Integration JdbcLockRegistry"),

		/**
		 * ShedLock's {@code JdbcTemplateLockProvider}, tried again every 100 ms until it
		 * gives a lock, since ShedLock skips and never waits.
		 */
		SHEDLOCK("ShedLock JdbcTemplateLockProvider (retried)");

		private final String title;

		PeerLock(String title) {
			this.title = title;
		}

		String title() {
			return this.title;
		}

		boolean hasToken() {
			return this == ZKLOCK || this == REDISSON_RFENCEDLOCK;
		}

	}

}
