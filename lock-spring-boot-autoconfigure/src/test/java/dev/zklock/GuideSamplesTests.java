package dev.zklock;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.math.BigDecimal;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.stream.Stream;

import javax.sql.DataSource;

import com.example.accounts.AccountBalances;
import com.example.accounts.AccountService;
import com.example.billing.BillingService;
import com.example.catalog.CatalogService;
import com.example.exports.ExportService;
import com.example.quotes.QuoteService;
import com.example.reports.DailyReports;
import com.example.reports.NightlySummary;
import dev.zklock.MissedRuns;
import dev.zklock.autoconfigure.jdbc.JdbcLockFenceAutoConfiguration;
import dev.zklock.autoconfigure.scheduling.ClusteredJobAutoConfiguration;
import dev.zklock.autoconfigure.scheduling.ClusteredJobProperties;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperProperties;
import dev.zklock.scheduling.JobRecord;
import dev.zklock.scheduling.JobRecords;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.LockActivity;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.awaitility.Awaitility;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.context.properties.bind.BindHandler;
import org.springframework.boot.context.properties.bind.Bindable;
import org.springframework.boot.context.properties.bind.Binder;
import org.springframework.boot.context.properties.bind.PropertySourcesPlaceholdersResolver;
import org.springframework.boot.context.properties.bind.handler.NoUnboundElementsBindHandler;
import org.springframework.boot.context.properties.source.ConfigurationPropertySources;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.core.env.MapPropertySource;
import org.springframework.core.env.MutablePropertySources;
import org.springframework.core.env.PropertySource;
import org.springframework.core.io.ClassPathResource;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.PlatformTransactionManager;
import org.springframework.transaction.annotation.EnableTransactionManagement;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * The samples of the guide, which its chapters include as tagged regions of these classes
 * and files, lock as the chapters say: the key expressions of "The annotation"
 * ({@link BillingService}), the template calls ({@link DailyReports}), the lock types
 * ({@link CatalogService}, {@link AccountService}), the answers to a lock that cannot be
 * had ({@link QuoteService}), the asynchronous and reactive locks
 * ({@link ExportService}), the JDBC fence ({@link AccountBalances}) and the security
 * properties ({@code samples/security.yml}), the clustered job ({@link NightlySummary})
 * and its properties ({@code samples/scheduling.yml}).
 */
class GuideSamplesTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@Test
	void readersHoldTogetherAndTheWriterWaitsForThem() throws Exception {
		ZooKeeperLockRegistry otherInstance = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		LockApplications.connectedTo(zookeeper).withUserConfiguration(CatalogService.class).run((context) -> {
			CatalogService catalog = context.getBean(CatalogService.class);
			catalog.add("lamp");
			AcquiredLock reader = otherInstance.acquire("catalog", LockType.READ, 1, Duration.ofSeconds(10));
			assertThat(catalog.items()).containsExactly("lamp");
			assertThat(catalog.snapshot()).containsExactly("lamp");
			CompletableFuture<Void> write = CompletableFuture.runAsync(() -> catalog.add("desk"));
			await().until(() -> context.getBean(ZooKeeperLockRegistry.class)
				.waitingLocks()
				.stream()
				.map(LockActivity::key)
				.toList(), (keys) -> keys.contains("catalog"));
			assertThat(write).isNotDone();
			reader.release();
			assertThat(write).succeedsWithin(Duration.ofSeconds(10));
			assertThat(catalog.items()).containsExactly("lamp", "desk");
		});
	}

	@Test
	void exportsShareTheSemaphoreOfFourPermits() throws Exception {
		ZooKeeperLockRegistry otherInstance = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		LockApplications.connectedTo(zookeeper).withUserConfiguration(CatalogService.class).run((context) -> {
			CatalogService catalog = context.getBean(CatalogService.class);
			AcquiredLock first = otherInstance.acquire("exports", LockType.SEMAPHORE, 4, Duration.ofSeconds(10));
			AcquiredLock second = otherInstance.acquire("exports", LockType.SEMAPHORE, 4, Duration.ofSeconds(10));
			assertThat(catalog.export("csv")).isEqualTo("0 items as csv");
			assertThat(catalog.exportWithin30Seconds("json")).isEqualTo("0 items as json");
			first.release();
			second.release();
		});
	}

	@Test
	void transferLocksBothAccounts() throws Exception {
		LockApplications.connectedTo(zookeeper).withUserConfiguration(AccountService.class).run((context) -> {
			AccountService accounts = context.getBean(AccountService.class);
			accounts.transfer("alice", "bob", BigDecimal.TEN);
			assertThat(List.of(accounts.transferLocked("bob", "alice", BigDecimal.ONE).split(",")))
				.containsExactlyInAnyOrder("account:alice", "account:bob");
			accounts.transferNamed("alice", "bob", BigDecimal.ONE);
			assertThat(accounts.balance("bob")).isEqualByComparingTo("10");
			assertThat(accounts.balance("alice")).isEqualByComparingTo("-10");
		});
	}

	@Test
	void keyExpressionsLockTheKeysTheChapterNames() throws Exception {
		ZooKeeperLockRegistry otherInstance = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		LockApplications.connectedTo(zookeeper)
			.withUserConfiguration(BillingService.class)
			.withBean("tenant", BillingService.Tenant.class, () -> new BillingService.Tenant("acme"))
			.withPropertyValues("orders.lock-wait=0")
			.run((context) -> {
				BillingService billing = context.getBean(BillingService.class);
				assertThat(billing.pay("42")).isEqualTo("order:42");
				assertThat(billing.invoice("c7", 3)).isEqualTo("invoice:c7:3");
				assertThat(billing.ship(new BillingService.Order("c7"))).isEqualTo("customer:c7");
				assertThat(billing.closeDay()).isEqualTo("acme:nightly");
				assertThat(billing.nightlyReport()).isEqualTo("nightly-report");
				assertThat(billing.cancel("o-9")).isEqualTo("o-9");
				AcquiredLock report = otherInstance.acquire("nightly-report", Duration.ofSeconds(10));
				AcquiredLock order = otherInstance.acquire("o-9", Duration.ofSeconds(10));
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(billing::nightlyReport)
					.satisfies((ex) -> assertThat(ex.getWaitTime()).isZero());
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> billing.cancel("o-9"))
					.satisfies((ex) -> assertThat(ex.getWaitTime()).isZero());
				report.release();
				order.release();
			});
	}

	@Test
	void templateCallsLockTheDayAndTryOnceWithAZeroWait() throws Exception {
		ZooKeeperLockRegistry otherInstance = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		LockApplications.connectedTo(zookeeper).withUserConfiguration(DailyReports.class).run((context) -> {
			DailyReports reports = context.getBean(DailyReports.class);
			LocalDate day = LocalDate.of(2026, 11, 26);
			DailyReports.Report first = reports.build(day);
			assertThat(first.fencingToken()).isPositive();
			assertThat(reports.buildIfFree(day).fencingToken()).isGreaterThan(first.fencingToken());
			assertThat(reports.buildNamed(day).day()).isEqualTo(day);
			AcquiredLock elsewhere = otherInstance.acquire("report:" + day, Duration.ofSeconds(10));
			assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> reports.buildIfFree(day));
			elsewhere.release();
		});
	}

	@Test
	void eachAnswerToALockThatCannotBeHadIsGiven() throws Exception {
		ZooKeeperLockRegistry otherInstance = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		LockApplications.connectedTo(zookeeper)
			.withUserConfiguration(QuoteService.class, QuoteService.QuoteConfiguration.class)
			.withPropertyValues("distributed-lock.wait-time=0")
			.run((context) -> {
				QuoteService quotes = context.getBean(QuoteService.class);
				assertThat(quotes.quote("EUR")).isEqualByComparingTo("1.09");
				AcquiredLock nightly = otherInstance.acquire("nightly", Duration.ofSeconds(10));
				AcquiredLock quote = otherInstance.acquire("quote:EUR", Duration.ofSeconds(10));
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(quotes::nightly);
				quotes.nightlyUnlessRunning();
				assertThat(quotes.nightlyRuns()).isZero();
				assertThat(quotes.quote("EUR")).isEqualByComparingTo("1.08");
				assertThatIllegalStateException().isThrownBy(() -> quotes.liveQuote("EUR"))
					.withMessage("Quotes for EUR are being refreshed, try again")
					.withCauseInstanceOf(LockTimeoutException.class);
				nightly.release();
				quote.release();
				// a release sends its deletion without waiting for ZooKeeper's reply
				Awaitility.await()
					.atMost(Duration.ofMinutes(1))
					.until(() -> otherInstance.queueOf("nightly").isEmpty());
				quotes.nightlyUnlessRunning();
				assertThat(quotes.nightlyRuns()).isOne();
			});
	}

	@Test
	void asynchronousAndReactiveLocksAreKeptUntilTheirResultsEnd() throws Exception {
		CompletableFuture<ExportService.Report> pending = new CompletableFuture<>();
		LockApplications.connectedTo(zookeeper)
			.withUserConfiguration(ExportService.class)
			.withBean(ExportService.Exporter.class, () -> (day) -> pending)
			.run((context) -> {
				ExportService exports = context.getBean(ExportService.class);
				ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
				LocalDate day = LocalDate.of(2026, 11, 26);
				CompletableFuture<ExportService.Report> export = exports.export(day);
				CompletableFuture<ExportService.Report> exportAll = exports.exportAll(day);
				assertThat(heldKeys(registry)).contains("export:" + day, "export");
				pending.complete(new ExportService.Report(day));
				assertThat(export).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(new ExportService.Report(day));
				assertThat(exportAll).succeedsWithin(Duration.ofSeconds(10));
				await().until(() -> heldKeys(registry),
						(keys) -> !keys.contains("export:" + day) && !keys.contains("export"));
				assertThat(exports.replay("f1").collectList().block(Duration.ofSeconds(10)))
					.containsExactly(new ExportService.Event("f1", 1), new ExportService.Event("f1", 2));
				exports.restock("lamp", 3).block(Duration.ofSeconds(10));
				assertThat(exports.stock("lamp")).isEqualTo(3);
				assertThat(exports.stockToken("lamp")).isPositive();
				exports.cleanup();
				exports.cleanup();
				assertThat(exports.cleanups()).isOne();
				assertThat(heldKeys(registry)).contains("cleanup");
			});
	}

	@Test
	void fencedCreditAndDebitUpdateTheBalanceAndRecordTheirTokens() {
		JdbcDataSource dataSource = new JdbcDataSource();
		dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1");
		JdbcTemplate jdbc = new JdbcTemplate(dataSource);
		jdbc.execute("create table account (id varchar(20) primary key, balance bigint not null)");
		jdbc.update("insert into account (id, balance) values ('a-1', 100)");
		LockApplications.connectedTo(zookeeper)
			.withConfiguration(AutoConfigurations.of(JdbcLockFenceAutoConfiguration.class))
			.withPropertyValues("distributed-lock.jdbc-fence.initialize-schema=always")
			.withBean(DataSource.class, () -> dataSource)
			.withUserConfiguration(FencedAccountsConfiguration.class)
			.run((context) -> {
				AccountBalances balances = context.getBean(AccountBalances.class);
				balances.credit("a-1", 30);
				long creditToken = fenceToken(jdbc);
				balances.debit("a-1", 50);
				assertThat(balances.balance("a-1")).isEqualTo(80);
				assertThat(fenceToken(jdbc)).isGreaterThan(creditToken);
			});
	}

	@Test
	void nightlySummaryRunsOnOneInstancePerScheduledTime() {
		ApplicationContextRunner instances = LockApplications.connectedTo(zookeeper)
			.withConfiguration(AutoConfigurations.of(ClusteredJobAutoConfiguration.class))
			.withUserConfiguration(Scheduling.class, NightlySummary.class)
			.withPropertyValues("reports.nightly-summary.cron=* * * * * *");
		instances.run((first) -> instances.run((second) -> {
			List<NightlySummary.Summary> firsts = first.getBean(NightlySummary.class).summaries();
			List<NightlySummary.Summary> seconds = second.getBean(NightlySummary.class).summaries();
			Awaitility.await().atMost(Duration.ofSeconds(60)).until(() -> firsts.size() + seconds.size() >= 3);
			JobRecord record = first.getBean(JobRecords.class).read("nightly-summary");
			assertThat(record.fencingToken()).isIn(Stream.concat(firsts.stream(), seconds.stream())
				.map(NightlySummary.Summary::fencingToken)
				.toList());
		}));
	}

	@Test
	void schedulingPropertiesBindEveryEntry() {
		ClusteredJobProperties properties = new Binder(
				ConfigurationPropertySources.from(loadYaml("samples/scheduling.yml")))
			.bind("distributed-lock.scheduling", Bindable.of(ClusteredJobProperties.class),
					new NoUnboundElementsBindHandler(BindHandler.DEFAULT))
			.get();
		assertThat(properties.getRootPath()).isEqualTo("/scheduled-jobs");
		assertThat(properties.getMissedRuns()).isEqualTo(MissedRuns.RUN_ONCE);
		assertThat(properties.getLockWait()).isEqualTo(Duration.ofSeconds(1));
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class Scheduling {

	}

	@Test
	void securityPropertiesBindEveryEntry() {
		List<PropertySource<?>> yaml = loadYaml("samples/security.yml");
		MutablePropertySources sources = new MutablePropertySources();
		yaml.forEach(sources::addLast);
		sources.addLast(new MapPropertySource("environment",
				Map.of("ZOOKEEPER_LOCK_PASSWORD", "secret", "ZOOKEEPER_KEY_STORE_PASSWORD", "key-store-secret",
						"ZOOKEEPER_TRUST_STORE_PASSWORD", "trust-store-secret")));
		ZooKeeperProperties properties = new Binder(ConfigurationPropertySources.from(yaml),
				new PropertySourcesPlaceholdersResolver(sources))
			.bind("distributed-lock.zookeeper", Bindable.of(ZooKeeperProperties.class),
					new NoUnboundElementsBindHandler(BindHandler.DEFAULT))
			.get();
		assertThat(properties.getConnectString()).isEqualTo("zk1:2281,zk2:2281,zk3:2281");
		assertThat(properties.getAuthentication().getUsername()).isEqualTo("orders");
		assertThat(properties.getAuthentication().getPassword()).isEqualTo("secret");
		assertThat(properties.getSsl().isEnabled()).isTrue();
		assertThat(properties.getSsl().getKeyStoreLocation()).isEqualTo(Path.of("/etc/zklock/client.p12"));
		assertThat(properties.getSsl().getKeyStorePassword()).isEqualTo("key-store-secret");
		assertThat(properties.getSsl().getTrustStoreLocation()).isEqualTo(Path.of("/etc/zklock/truststore.p12"));
		assertThat(properties.getSsl().getTrustStorePassword()).isEqualTo("trust-store-secret");
	}

	private static List<PropertySource<?>> loadYaml(String resource) {
		try {
			return new YamlPropertySourceLoader().load(resource, new ClassPathResource(resource));
		}
		catch (IOException ex) {
			throw new UncheckedIOException(ex);
		}
	}

	private static long fenceToken(JdbcTemplate jdbc) {
		return jdbc.queryForObject("select fencing_token from zklock_fence where lock_key = 'account:a-1'", Long.class);
	}

	private static List<String> heldKeys(ZooKeeperLockRegistry registry) {
		return registry.heldLocks().stream().map(LockActivity::key).toList();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableTransactionManagement
	@Import(AccountBalances.class)
	static class FencedAccountsConfiguration {

		@Bean
		JdbcTemplate jdbcTemplate(DataSource dataSource) {
			return new JdbcTemplate(dataSource);
		}

		@Bean
		DataSourceTransactionManager transactionManager(DataSource dataSource) {
			return new DataSourceTransactionManager(dataSource);
		}

		@Bean
		TransactionTemplate transactionTemplate(PlatformTransactionManager transactionManager) {
			return new TransactionTemplate(transactionManager);
		}

	}

}
