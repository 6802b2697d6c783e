package dev.zklock.jdbc;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.zklock.DistributedLock;
import dev.zklock.LockHandle;
import dev.zklock.LockLostException;
import dev.zklock.LockTemplate;
import dev.zklock.StaleFencingTokenException;
import dev.zklock.autoconfigure.jdbc.JdbcLockFenceAutoConfiguration;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.PostgresTestServer;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
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

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Holders of one lock in two applications, on a real ZooKeeper server, write a counter in
 * a shared database through the auto-configured {@link JdbcLockFence}, from a
 * {@link DistributedLock} method and from a {@link LockTemplate} callback, on H2 and on
 * PostgreSQL. A holder whose session ends while it is paused loses the lock to the other
 * application: its late transaction is refused if the next holder checked first, and
 * holds the next holder back until it commits if it checked before its pause.
 */
@ParameterizedClass
@EnumSource(TestDatabase.class)
class FencedHoldersTests {

	private static final Duration AWAIT = Duration.ofSeconds(30);

	/**
	 * Threads of their own for the calls that block: on Java 25,
	 * {@code CompletableFuture}'s default executor is the common pool even with one
	 * thread, where a blocked call keeps the next from running.
	 */
	private final ExecutorService calls = Executors.newCachedThreadPool();

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@RegisterExtension
	static final PostgresTestServer postgres = new PostgresTestServer();

	@Parameter
	TestDatabase database;

	private JdbcTemplate jdbc;

	private ApplicationContextRunner applications;

	@AfterEach
	void stopCalls() {
		this.calls.shutdownNow();
	}

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

	@Test
	void holdersOfTwoApplicationsPassTheFenceAndLoseNoIncrement() {
		this.applications.run((first) -> this.applications.run((second) -> {
			ExecutorService threads = Executors.newFixedThreadPool(4);
			try {
				List<Future<?>> work = new ArrayList<>();
				for (int t = 0; t < 4; t++) {
					Counter counter = counter((t < 2) ? first : second);
					boolean annotated = t % 2 == 0;
					work.add(threads.submit(() -> {
						for (int i = 0; i < 10; i++) {
							if (annotated) {
								counter.increment("annotated");
							}
							else {
								counter.incrementThroughTheTemplate("template");
							}
						}
						return null;
					}));
				}
				for (Future<?> future : work) {
					future.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
				}
			}
			finally {
				threads.shutdownNow();
			}
			assertThat(total()).isEqualTo(40);
			assertThat(ledger()).hasSize(40);
		}));
	}

	@Test
	void pausedHolderWhoseLockPassedOnIsRefusedAndRolledBackWhileTheNextHolderCommits() {
		this.applications.run((paused) -> this.applications.run((next) -> {
			CountDownLatch resume = new CountDownLatch(1);
			CompletableFuture<Long> late = pauseAndEndSession(paused, Counter::incrementAfterAPause, resume);
			long nextToken = counter(next).incrementThroughTheTemplate("next holder");
			resume.countDown();
			assertThat(late).failsWithin(AWAIT)
				.withThrowableThat()
				.havingCause()
				.isInstanceOfSatisfying(StaleFencingTokenException.class, (ex) -> {
					assertThat(ex.getKey()).isEqualTo("counter");
					assertThat(ex.getFencingToken()).isLessThan(nextToken);
					assertThat(ex.getNewerFencingToken()).hasValue(nextToken);
					assertThat(ex.getSuppressed()).singleElement().isInstanceOf(LockLostException.class);
				});
			assertThat(ledger()).containsExactly("next holder");
			assertThat(total()).isOne();
			assertThat(this.jdbc.queryForObject("SELECT fencing_token FROM zklock_fence", Long.class))
				.isEqualTo(nextToken);
		}));
	}

	@Test
	void pausedHolderThatCheckedBeforeItsPauseHoldsTheNextHolderBackUntilItCommits() {
		this.applications.run((paused) -> this.applications.run((next) -> {
			CountDownLatch resume = new CountDownLatch(1);
			CompletableFuture<Long> late = pauseAndEndSession(paused, Counter::checkThenIncrementAfterAPause, resume);
			CompletableFuture<Long> nextHolder = CompletableFuture
				.supplyAsync(() -> counter(next).incrementThroughTheTemplate("next holder"), this.calls);
			await().atMost(AWAIT).until(() -> this.database.waitingStatements(this.jdbc) == 1);
			assertThat(nextHolder).isNotDone();
			resume.countDown();
			assertThat(late).failsWithin(AWAIT).withThrowableThat().havingCause().isInstanceOf(LockLostException.class);
			assertThat(nextHolder).succeedsWithin(AWAIT);
			assertThat(ledger()).containsExactlyInAnyOrder("paused holder", "next holder");
			assertThat(total()).isEqualTo(2);
		}));
	}

	private static Counter counter(ApplicationContext application) {
		return application.getBean(Counter.class);
	}

	/**
	 * Calls the application's counter on another thread, waits until the call pauses, and
	 * ends the application's ZooKeeper session, so that the paused call's lock passes on.
	 * @return the call, which goes on once {@code resume} opens
	 */
	private CompletableFuture<Long> pauseAndEndSession(ApplicationContext application, PausingCall call,
			CountDownLatch resume) throws Exception {
		CountDownLatch pausing = new CountDownLatch(1);
		CompletableFuture<Long> result = CompletableFuture
			.supplyAsync(() -> call.run(counter(application), pausing, resume), this.calls);
		assertThat(pausing.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		application.getBean(CuratorFramework.class)
			.getZookeeperClient()
			.getZooKeeper()
			.getTestable()
			.injectSessionExpiration();
		return result;
	}

	private int total() {
		return this.jdbc.queryForObject("SELECT total FROM counter", Integer.class);
	}

	private List<String> ledger() {
		return this.jdbc.queryForList("SELECT entry FROM ledger", String.class);
	}

	/**
	 * A call of the counter that opens {@code pausing} and waits for {@code resume}.
	 */
	@FunctionalInterface
	interface PausingCall {

		long run(Counter counter, CountDownLatch pausing, CountDownLatch resume);

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
