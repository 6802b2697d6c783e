package dev.zklock.jdbc;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import javax.sql.DataSource;

import dev.zklock.LockHandle;
import dev.zklock.MultiKeyLock;
import dev.zklock.StaleFencingTokenException;
import dev.zklock.testsupport.PostgresTestServer;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.Parameter;
import org.junit.jupiter.params.ParameterizedClass;
import org.junit.jupiter.params.provider.EnumSource;

import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.jdbc.datasource.DataSourceTransactionManager;
import org.springframework.transaction.support.TransactionTemplate;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * {@link JdbcLockFence} on a real database, H2 and PostgreSQL, with the handles of
 * holders whose tokens the tests choose.
 */
@ParameterizedClass
@EnumSource(TestDatabase.class)
class JdbcLockFenceTests {

	private static final Duration AWAIT = Duration.ofSeconds(15);

	/**
	 * Threads of their own for the calls that block: on Java 25,
	 * {@code CompletableFuture}'s default executor is the common pool even with one
	 * thread, where a blocked call keeps the next from running.
	 */
	private final ExecutorService calls = Executors.newCachedThreadPool();

	@RegisterExtension
	static final PostgresTestServer postgres = new PostgresTestServer();

	@Parameter
	TestDatabase database;

	private DataSource dataSource;

	private JdbcTemplate jdbc;

	private TransactionTemplate transaction;

	private JdbcLockFence fence;

	@AfterEach
	void stopCalls() {
		this.calls.shutdownNow();
	}

	@BeforeEach
	void createDatabase() throws Exception {
		this.dataSource = this.database.create(postgres);
		this.jdbc = new JdbcTemplate(this.dataSource);
		this.jdbc.execute("CREATE TABLE ledger (entry VARCHAR(100) NOT NULL)");
		this.transaction = new TransactionTemplate(new DataSourceTransactionManager(this.dataSource));
		this.fence = new JdbcLockFence(this.dataSource);
		this.fence.createTableIfMissing();
	}

	@Test
	void firstCheckOfAKeyRecordsItsToken() {
		checkInTransaction(new Hold("order:42", 4096));
		assertThat(this.jdbc.queryForMap("SELECT lock_key, fencing_token FROM zklock_fence")).containsValues("order:42",
				4096L);
	}

	@Test
	void equalAndGreaterTokensPass() {
		checkInTransaction(new Hold("order:42", 4096));
		checkInTransaction(new Hold("order:42", 4096));
		checkInTransaction(new Hold("order:42", 8193));
		assertThat(tokens()).containsExactly(8193L);
	}

	@Test
	void olderTokenIsRefusedAndItsTransactionRollsBackWithEveryWriteInIt() {
		checkInTransaction(new Hold("order:42", 8192));
		assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(() -> this.transaction.execute((s) -> {
			this.jdbc.update("INSERT INTO ledger (entry) VALUES ('late write')");
			this.fence.check(new Hold("order:42", 4096));
			return null;
		}))
			.withMessage(
					"Write under lock 'order:42' refused: its fencing token 4096 is older than 8192, which a newer "
							+ "holder of the lock has written with, so this holder lost the lock (or ZooKeeper's data was "
							+ "reset while the storage kept its tokens)")
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("order:42"))
			.satisfies((ex) -> assertThat(ex.getFencingToken()).isEqualTo(4096))
			.satisfies((ex) -> assertThat(ex.getNewerFencingToken()).hasValue(8192));
		assertThat(this.jdbc.queryForList("SELECT entry FROM ledger", String.class)).isEmpty();
		assertThat(tokens()).containsExactly(8192L);
	}

	@Test
	void keysAreFencedApart() {
		checkInTransaction(new Hold("order:42", 8192));
		checkInTransaction(new Hold("order:43", 4096));
		assertThat(tokens()).containsExactlyInAnyOrder(8192L, 4096L);
	}

	@Test
	void keysOfAnyLengthAndAnyCharactersAreFencedApart() {
		String huge = "x".repeat(10_240);
		List<String> keys = List.of(huge, huge.substring(1) + "y", "ünïcødé/ключ", "\uD800", "\uDBFF", "a/../b");
		for (String key : keys) {
			checkInTransaction(new Hold(key, 4096));
		}
		assertThat(tokens()).hasSize(keys.size());
		assertThat(this.jdbc.queryForList("SELECT lock_key FROM zklock_fence", String.class))
			.contains("x".repeat(100) + "... (10240 characters)", "ünïcødé/ключ");
	}

	@Test
	void checkOutsideATransactionFailsAndRecordsNothing() {
		assertThatIllegalStateException().isThrownBy(() -> this.fence.check(new Hold("order:42", 4096)))
			.withMessageStartingWith("No transaction is active, so the lock fence cannot check lock 'order:42'");
		assertThat(tokens()).isEmpty();
	}

	@Test
	void checkInATransactionOfAnotherDatabaseFailsAndRecordsNothing() {
		JdbcDataSource other = new JdbcDataSource();
		other.setURL("jdbc:h2:mem:other;DB_CLOSE_DELAY=-1");
		TransactionTemplate otherTransaction = new TransactionTemplate(new DataSourceTransactionManager(other));
		assertThatIllegalStateException()
			.isThrownBy(() -> otherTransaction.executeWithoutResult((s) -> this.fence.check(new Hold("order:42", 1))))
			.withMessageStartingWith("The lock fence's connection is in auto-commit mode");
		assertThat(tokens()).isEmpty();
	}

	@Test
	void checkWithoutAHeldLockFails() {
		assertThatIllegalStateException()
			.isThrownBy(() -> this.transaction.executeWithoutResult((s) -> this.fence.check()))
			.withMessageStartingWith("The current thread holds no distributed lock");
	}

	@Test
	void multiKeyLockIsCheckedKeyByKeyWithEachKeysOwnToken() {
		checkInTransaction(new Hold("account:a", 4096));
		checkInTransaction(new Hold("account:b", 16384));
		MultiKeyLock both = new MultiKeyLock(List.of(new Hold("account:a", 8192), new Hold("account:b", 12288)));
		assertThatExceptionOfType(StaleFencingTokenException.class).isThrownBy(() -> checkInTransaction(both))
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("account:b"));
		assertThat(tokens()).containsExactlyInAnyOrder(4096L, 16384L);
		checkInTransaction(new MultiKeyLock(List.of(new Hold("account:a", 20480), new Hold("account:b", 20481))));
		assertThat(tokens()).containsExactlyInAnyOrder(20480L, 20481L);
	}

	@Test
	void newerHolderThatInsertsTheKeysRowSecondWaitsForTheFirstAndPasses() throws Exception {
		assertThat(raceFirstChecks(4096, 8192)).succeedsWithin(AWAIT);
		assertThat(tokens()).containsExactly(8192L);
	}

	@Test
	void olderHolderThatInsertsTheKeysRowSecondWaitsForTheFirstAndIsRefused() throws Exception {
		assertThat(raceFirstChecks(8192, 4096)).failsWithin(AWAIT)
			.withThrowableThat()
			.havingCause()
			.isInstanceOf(StaleFencingTokenException.class);
		assertThat(tokens()).containsExactly(8192L);
	}

	/**
	 * Checks a key that has no row yet in two transactions: the first inserts the row and
	 * stays open until the second waits for it, then commits.
	 * @return the second transaction's check, done
	 */
	private CompletableFuture<Void> raceFirstChecks(long firstToken, long secondToken) throws Exception {
		CountDownLatch inserted = new CountDownLatch(1);
		CountDownLatch commit = new CountDownLatch(1);
		CompletableFuture<Void> first = CompletableFuture.runAsync(() -> this.transaction.executeWithoutResult((s) -> {
			this.fence.check(new Hold("order:42", firstToken));
			inserted.countDown();
			awaitUninterruptibly(commit);
		}), this.calls);
		assertThat(inserted.await(AWAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		CompletableFuture<Void> second = CompletableFuture
			.runAsync(() -> checkInTransaction(new Hold("order:42", secondToken)), this.calls);
		await().atMost(AWAIT).until(() -> this.database.waitingStatements(this.jdbc) == 1);
		commit.countDown();
		assertThat(first).succeedsWithin(AWAIT);
		return second;
	}

	@Test
	void createTableIfMissingKeepsAnExistingTableAndItsTokens() {
		checkInTransaction(new Hold("order:42", 4096));
		this.fence.createTableIfMissing();
		assertThat(tokens()).containsExactly(4096L);
	}

	@Test
	void tableMayBeNamedAndQualifiedByASchema() {
		this.jdbc.execute("CREATE SCHEMA locking");
		JdbcLockFence named = new JdbcLockFence(this.dataSource, "locking.fence");
		named.createTableIfMissing();
		this.transaction.executeWithoutResult((s) -> named.check(new Hold("order:42", 4096)));
		assertThat(this.jdbc.queryForList("SELECT fencing_token FROM locking.fence", Long.class))
			.containsExactly(4096L);
		assertThat(named.getTableName()).isEqualTo("locking.fence");
	}

	private void checkInTransaction(LockHandle lock) {
		this.transaction.executeWithoutResult((s) -> this.fence.check(lock));
	}

	private List<Long> tokens() {
		return this.jdbc.queryForList("SELECT fencing_token FROM zklock_fence", Long.class);
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		try {
			latch.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

	/**
	 * A hold with the token a test chose.
	 */
	private record Hold(String key, long fencingToken) implements LockHandle {

		@Override
		public boolean isValid() {
			return true;
		}

	}

}
