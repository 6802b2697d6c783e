package dev.zklock.interceptor;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.zklock.DistributedLock;
import dev.zklock.LockHandle;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.testsupport.ContainerNodes;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseBuilder;
import org.springframework.jdbc.datasource.embedded.EmbeddedDatabaseType;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.annotation.Transactional;
import org.springframework.transaction.support.TransactionSynchronization;
import org.springframework.transaction.support.TransactionSynchronizationManager;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A method that is both {@code @DistributedLock} and {@code @Transactional} acquires the
 * lock, begins, commits and only then releases the lock, whichever order the annotations
 * are processed in.
 */
class TransactionOrderingTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=" + zookeeper.connectString())
		.withUserConfiguration(TransactionalConfiguration.class);

	@Test
	void lockIsAcquiredBeforeTheTransactionBeginsAndReleasedAfterItCommits() {
		this.contextRunner.run((context) -> {
			LedgerService ledger = context.getBean(LedgerService.class);
			ledger.record("entry");
			assertThat(ledger.events()).containsExactly("body: transaction active, lock held in ZooKeeper",
					"commit: lock held in ZooKeeper");
			assertThat(context.getBean(JdbcTemplate.class).queryForObject("select count(*) from ledger", Integer.class))
				.isOne();
			assertThat(ledger.lockNodes()).isEmpty();
		});
	}

	@Test
	void contendersOfTwoApplicationsSeeOnlyCommittedDataAndLoseNoIncrement() {
		DataSource shared = TransactionalConfiguration.newDataSource();
		ApplicationContextRunner applications = new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
			.withPropertyValues("distributed-lock.zookeeper.connect-string=" + zookeeper.connectString())
			.withBean(DataSource.class, () -> shared)
			.withUserConfiguration(LedgerConfiguration.class);
		applications.run((first) -> applications.run((second) -> {
			List<LedgerService> ledgers = List.of(first.getBean(LedgerService.class),
					second.getBean(LedgerService.class));
			ExecutorService threads = Executors.newFixedThreadPool(4);
			try {
				List<Future<?>> work = new ArrayList<>();
				for (int t = 0; t < 4; t++) {
					LedgerService ledger = ledgers.get(t % 2);
					work.add(threads.submit(() -> {
						for (int i = 0; i < 15; i++) {
							ledger.increment();
						}
						return null;
					}));
				}
				for (Future<?> future : work) {
					future.get(60, TimeUnit.SECONDS);
				}
			}
			finally {
				threads.shutdownNow();
			}
			assertThat(first.getBean(JdbcTemplate.class).queryForObject("select total from counter", Integer.class))
				.isEqualTo(60);
		}));
	}

	@Test
	void lockCanBeTakenInsideTheTransactionInstead() {
		this.contextRunner.withPropertyValues("distributed-lock.wrap-transaction=false").run((context) -> {
			LedgerService ledger = context.getBean(LedgerService.class);
			ledger.record("entry");
			assertThat(ledger.events()).hasSize(2);
			assertThat(ledger.events().get(0)).isEqualTo("body: transaction active, lock held in ZooKeeper");
			assertThat(ledger.events().get(1)).startsWith("commit: lock not held");
		});
	}

	@Configuration(proxyBeanMethods = false)
	@Import(LedgerConfiguration.class)
	static class TransactionalConfiguration {

		@Bean
		DataSource dataSource() {
			return newDataSource();
		}

		static DataSource newDataSource() {
			return new EmbeddedDatabaseBuilder().setType(EmbeddedDatabaseType.H2)
				.generateUniqueName(true)
				.addScript("classpath:ledger.sql")
				.build();
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	static class LedgerConfiguration {

		@Bean
		PlatformTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		JdbcTemplate jdbcTemplate(DataSource dataSource) {
			return new JdbcTemplate(dataSource);
		}

		@Bean
		LedgerService ledgerService(JdbcTemplate jdbcTemplate, CuratorFramework client,
				ZooKeeperLockRegistry registry) {
			return new LedgerService(jdbcTemplate, client, registry);
		}

	}

	static class LedgerService {

		private final List<String> events = new CopyOnWriteArrayList<>();

		private final JdbcTemplate jdbcTemplate;

		private final CuratorFramework client;

		private final ZooKeeperLockRegistry registry;

		LedgerService(JdbcTemplate jdbcTemplate, CuratorFramework client, ZooKeeperLockRegistry registry) {
			this.jdbcTemplate = jdbcTemplate;
			this.client = client;
			this.registry = registry;
		}

		@Transactional
		@DistributedLock(key = "'ledger'")
		public void record(String entry) {
			this.jdbcTemplate.update("insert into ledger(entry) values (?)", entry);
			this.events.add("body: " + (TransactionSynchronizationManager.isActualTransactionActive()
					? "transaction active" : "no transaction") + ", " + lockState());
			TransactionSynchronizationManager.registerSynchronization(new TransactionSynchronization() {

				@Override
				public void afterCommit() {
					LedgerService.this.events.add("commit: " + lockState());
				}

			});
		}

		@Transactional
		@DistributedLock(key = "'counter'", waitTime = "30s")
		public void increment() {
			int total = this.jdbcTemplate.queryForObject("select total from counter", Integer.class);
			Thread.yield();
			this.jdbcTemplate.update("update counter set total = ?", total + 1);
		}

		List<String> events() {
			return this.events;
		}

		List<String> lockNodes() throws Exception {
			return ContainerNodes.childrenOf(this.client, this.registry.pathOf("ledger"));
		}

		private String lockState() {
			try {
				boolean held = LockHandle.current().isValid() && lockNodes().size() == 1;
				return held ? "lock held in ZooKeeper" : "lock not held";
			}
			catch (Exception ex) {
				return "lock not held (" + ex.getMessage() + ")";
			}
		}

	}

}
