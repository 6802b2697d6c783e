package dev.zklock.benchmarks;

import java.time.Duration;
import java.time.Instant;
import java.util.Optional;

import net.javacrumbs.shedlock.core.LockConfiguration;
import net.javacrumbs.shedlock.core.SimpleLock;
import net.javacrumbs.shedlock.provider.jdbctemplate.JdbcTemplateLockProvider;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * ShedLock's {@link JdbcTemplateLockProvider} on PostgreSQL, on its {@code shedlock}
 * table, with the database's clock ({@code usingDbTime()}, as ShedLock recommends).
 * ShedLock is a lock for "run at most once, skip if taken": {@code lock()} answers at
 * once and never waits. To use it as a lock, as this driver does, a caller tries
 * {@code lock()} again after a back-off of 10 ms until it gets the lock or the wait time
 * passes. Each lock is held for at most 30 s ({@code lockAtMostFor}, a value a user would
 * pick: the lease after which another process may take it) and at least for nothing
 * ({@code lockAtLeastFor} zero), so that {@code unlock()} frees it at once. The lock
 * names are the keys under the variant's root path.
 */
final class ShedLockDriver implements LockDriver {

	private static final Duration LOCK_AT_MOST_FOR = Duration.ofSeconds(30);

	private static final Duration BACK_OFF = Duration.ofMillis(10);

	private final JdbcWrites dataSource;

	private final JdbcTemplateLockProvider provider;

	private final String rootPath;

	ShedLockDriver(String jdbcUrl, String rootPath) {
		this.dataSource = JdbcWrites.open(jdbcUrl, "shedlock");
		this.provider = new JdbcTemplateLockProvider(JdbcTemplateLockProvider.Configuration.builder()
			.withJdbcTemplate(new JdbcTemplate(this.dataSource))
			.usingDbTime()
			.build());
		this.rootPath = rootPath;
	}

	@Override
	public void withLock(String key, Runnable work) throws Exception {
		String name = this.rootPath + "/" + key;
		SimpleLock lock = acquire(name);
		try {
			work.run();
		}
		finally {
			lock.unlock();
		}
	}

	private SimpleLock acquire(String name) throws InterruptedException {
		long deadline = System.nanoTime() + WAIT_TIME.toNanos();
		while (true) {
			Optional<SimpleLock> lock = this.provider
				.lock(new LockConfiguration(Instant.now(), name, LOCK_AT_MOST_FOR, Duration.ZERO));
			if (lock.isPresent()) {
				return lock.get();
			}
			if (System.nanoTime() - deadline >= 0) {
				throw new IllegalStateException("ShedLock did not acquire '" + name + "' within " + WAIT_TIME);
			}
			Thread.sleep(BACK_OFF.toMillis());
		}
	}

	@Override
	public long writes() {
		return this.dataSource.count();
	}

	@Override
	public void close() {
		this.dataSource.close();
	}

}
