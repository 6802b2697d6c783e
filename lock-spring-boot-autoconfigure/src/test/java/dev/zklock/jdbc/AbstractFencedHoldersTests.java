package dev.zklock.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CountDownLatch;

import javax.sql.DataSource;

import dev.zklock.DistributedLock;
import dev.zklock.LockHandle;
import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.jdbc.JdbcLockFenceAutoConfiguration;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.PostgresTestServer;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionTemplate;

/**
 * Applications on a real ZooKeeper server whose {@link Counter} holds one lock to write a
 * counter in a shared database through the auto-configured {@link JdbcLockFence}, from a
 * {@link DistributedLock} method and from a {@link LockTemplate} callback, on H2 and on
 * PostgreSQL, each test with a new database.
 */
@ParameterizedClass
@EnumSource(TestDatabase.class)
abstract class AbstractFencedHoldersTests {

	static final Duration AWAIT = Duration.ofSeconds(30);

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@RegisterExtension
	static final PostgresTestServer postgres = new PostgresTestServer();

	@Parameter
	TestDatabase database;

	JdbcTemplate jdbc;

	ApplicationContextRunner applications;

	@BeforeEach
	void createDatabase() throws Exception {
		DataSource dataSource = this.database.create(postgres);
		this.jdbc = new JdbcTemplate(dataSource);
		this.jdbc.execute("CREATE TABLE ledger (entry VARCHAR(100) NOT NULL)");
		this.jdbc.execute("CREATE TABLE counter (total INT NOT NULL)");
		this.jdbc.update("INSERT INTO counter (total) VALUES (0)");
		this.applications = LockApplications.connectedTo(zookeeper)
			.withConfiguration(AutoConfigurations.of(JdbcLockFenceAutoConfiguration.class))
			.withPropertyValues("distributed-lock.jdbc-fence.initialize-schema=always",
					"distributed-lock.zookeeper.session-timeout=2s")
			.withBean(DataSource.class, () -> dataSource)
			.withUserConfiguration(CounterConfiguration.class);
	}

	static Counter counter(ApplicationContext application) {
		return application.getBean(Counter.class);
	}

	int total() {
		return this.jdbc.queryForObject("SELECT total FROM counter", Integer.class);
	}

	List<String> ledger() {
		return this.jdbc.queryForList("SELECT entry FROM ledger", String.class);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class CounterConfiguration {

		@Bean
		PlatformTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		Counter counter(DataSource dataSource, JdbcLockFence fence, LockTemplate lockTemplate,
				PlatformTransactionManager transactionManager) {
			return new Counter(new JdbcTemplate(dataSource), fence, lockTemplate,
					new TransactionTemplate(transactionManager));
		}

	}

	/**
	 * A counter in the database, and a ledger of who incremented it. Each method returns
	 * the fencing token it wrote with.
	 */
	static class Counter {

		private final JdbcTemplate jdbc;

		private final JdbcLockFence fence;

		private final LockTemplate lockTemplate;

		private final TransactionTemplate transaction;

		Counter(JdbcTemplate jdbc, JdbcLockFence fence, LockTemplate lockTemplate, TransactionTemplate transaction) {
			this.jdbc = jdbc;
			this.fence = fence;
			this.lockTemplate = lockTemplate;
			this.transaction = transaction;
		}

		@DistributedLock(key = "'counter'", waitTime = "30s")
		@Transactional
		public long increment(String entry) {
			this.fence.check();
			return add(entry, LockHandle.current());
		}

		public long incrementThroughTheTemplate(String entry) {
			return this.lockTemplate.execute("counter", Duration.ofSeconds(30),
					(lock) -> this.transaction.execute((status) -> {
						this.fence.check(lock);
						return add(entry, lock);
					}));
		}

		/**
		 * Reads the counter and writes the ledger, pauses, then checks the fence and
		 * writes the counter it read, plus one.
		 */
		@DistributedLock(key = "'counter'")
		@Transactional
		public long incrementAfterAPause(CountDownLatch pausing, CountDownLatch resume) {
			int total = this.jdbc.queryForObject("SELECT total FROM counter", Integer.class);
			this.jdbc.update("INSERT INTO ledger (entry) VALUES ('paused holder')");
			pause(pausing, resume);
			this.fence.check();
			this.jdbc.update("UPDATE counter SET total = ?", total + 1);
			return LockHandle.current().fencingToken();
		}

		/**
		 * Checks the fence, pauses, then increments.
		 */
		@DistributedLock(key = "'counter'")
		@Transactional
		public long checkThenIncrementAfterAPause(CountDownLatch pausing, CountDownLatch resume) {
			this.fence.check();
			pause(pausing, resume);
			return add("paused holder", LockHandle.current());
		}

		private long add(String entry, LockHandle lock) {
			int total = this.jdbc.queryForObject("SELECT total FROM counter", Integer.class);
			this.jdbc.update("UPDATE counter SET total = ?", total + 1);
			this.jdbc.update("INSERT INTO ledger (entry) VALUES (?)", entry);
			return lock.fencingToken();
		}

		private static void pause(CountDownLatch pausing, CountDownLatch resume) {
			pausing.countDown();
			try {
				resume.await();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}

	}

}
