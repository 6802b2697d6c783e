package dev.zklock.benchmarks;

import org.springframework.integration.jdbc.lock.DefaultLockRepository;
import org.springframework.integration.jdbc.lock.JdbcLockRegistry;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;

/**
 * Spring Integration's {@link JdbcLockRegistry} over a {@link DefaultLockRepository} on
 * PostgreSQL, through the registry's own template method,
 * {@code executeLocked(key, waitTime, work)}, as {@link SpringIntegrationDriver} uses its
 * ZooKeeper registry: a cached lock per key, a local lock per key for the threads of one
 * JVM, then a row in {@code INT_LOCK} taken by an {@code UPDATE} (and an {@code INSERT}
 * when there is none) in one transaction, tried again every 100 ms until the wait time,
 * and deleted on release. Everything at the registry's defaults: the row expires after
 * its default time to live of 10 s unless renewed. Each variant is a region of its own.
 */
final class JdbcRegistryDriver implements LockDriver {

	private final JdbcWrites dataSource;

	private final DefaultLockRepository repository;

	private final JdbcLockRegistry registry;

	JdbcRegistryDriver(String jdbcUrl, String region) {
		this.dataSource = JdbcWrites.open(jdbcUrl, "jdbc-registry");
		this.repository = new DefaultLockRepository(this.dataSource);
		this.repository.setRegion(region);
		this.repository.setTransactionManager(new DataSourceTransactionManager(this.dataSource));
		this.repository.afterPropertiesSet();
		this.repository.afterSingletonsInstantiated();
		this.repository.start();
		this.registry = new JdbcLockRegistry(this.repository);
	}

	@Override
	public void withLock(String key, Runnable work) throws Exception {
		this.registry.executeLocked(key, WAIT_TIME, work::run);
	}

	@Override
	public long writes() {
		return this.dataSource.count();
	}

	@Override
	public void close() {
		this.repository.close();
		this.dataSource.close();
	}

}
