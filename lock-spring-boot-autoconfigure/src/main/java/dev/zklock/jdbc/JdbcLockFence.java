package dev.zklock.jdbc;

import java.nio.ByteBuffer;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Savepoint;
import java.util.HexFormat;
import java.util.List;
import java.util.regex.Pattern;

import javax.sql.DataSource;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockHandle;
import dev.zklock.MultiKeyLock;
import dev.zklock.StaleFencingTokenException;
import org.jspecify.annotations.Nullable;

import org.springframework.dao.DataAccessException;
import org.springframework.jdbc.BadSqlGrammarException;
import org.springframework.jdbc.core.ConnectionCallback;
import org.springframework.jdbc.core.JdbcTemplate;
import org.springframework.transaction.support.TransactionSynchronizationManager;
import org.springframework.util.Assert;

/**
 * Fences a relational database with the fencing tokens of distributed locks: within the
 * caller's transaction, {@link #check()} records the token of the caller's hold as the
 * highest seen for its key, or refuses it with {@link StaleFencingTokenException} when a
 * newer holder has recorded a greater one, so that the transaction rolls back with every
 * write in it. A holder that lost its lock without noticing (a long pause, a partition)
 * then cannot overwrite what the next holder wrote.
 *
 * <pre class="code">
 * &#064;DistributedLock(key = "'account:' + #id")
 * &#064;Transactional
 * public void credit(String id, long amount) {
 *     fence.check();
 *     // read the balance, write the new one
 * }
 * </pre>
 *
 * Call it first in the transaction, before reading what the transaction writes: the key's
 * row that it updates stays locked until the transaction ends, so the transactions of two
 * holders that both pass the check run one after the other, and the later one reads what
 * the earlier one committed. Equal tokens pass, so a holder may check as often as it
 * writes.
 * <p>
 * The tokens live in a table of their own, one row per lock key (see
 * {@link #createTableStatement()}): a normal check is one conditional {@code UPDATE}; the
 * first check of a key inserts its row, and the rare refusal also reads the newer token
 * for its message. Fence writes made under exclusive or write locks: readers of a read
 * lock and holders of semaphore permits hold at the same time, so their tokens do not
 * order them. A {@link MultiKeyLock} is checked key by key, each with its own token.
 */
public class JdbcLockFence {

	/**
	 * The table of the tokens when none is named.
	 */
	public static final String DEFAULT_TABLE_NAME = "zklock_fence";

	private static final Pattern TABLE_NAME = Pattern.compile("[A-Za-z_][A-Za-z0-9_]*(\\.[A-Za-z_][A-Za-z0-9_]*)?");

	private final JdbcTemplate jdbcTemplate;

	private final String tableName;

	private final String raiseStatement;

	private final String insertStatement;

	private final String selectStatement;

	/**
	 * Creates a fence that keeps its tokens in {@value #DEFAULT_TABLE_NAME}.
	 * @param dataSource the database whose transactions are fenced
	 */
	public JdbcLockFence(DataSource dataSource) {
		this(dataSource, DEFAULT_TABLE_NAME);
	}

	/**
	 * Creates a fence that keeps its tokens in the named table.
	 * @param dataSource the database whose transactions are fenced
	 * @param tableName the table of the tokens: an SQL identifier, optionally qualified
	 * by a schema, such as {@code zklock_fence} or {@code locking.fence}
	 */
	public JdbcLockFence(DataSource dataSource, String tableName) {
		Assert.notNull(dataSource, "'dataSource' must not be null");
		Assert.isTrue(tableName != null && TABLE_NAME.matcher(tableName).matches(), () -> "Lock fence table name '"
				+ tableName + "' is not an SQL identifier (letters, digits and '_', optionally 'schema.table')");
		this.jdbcTemplate = new JdbcTemplate(dataSource);
		this.tableName = tableName;
		this.raiseStatement = "UPDATE " + tableName
				+ " SET fencing_token = ? WHERE key_hash = ? AND fencing_token <= ?";
		this.insertStatement = "INSERT INTO " + tableName + " (key_hash, lock_key, fencing_token) VALUES (?, ?, ?)";
		this.selectStatement = "SELECT fencing_token FROM " + tableName + " WHERE key_hash = ?";
	}

	/**
	 * The table of the tokens.
	 * @return the table name
	 */
	public String getTableName() {
		return this.tableName;
	}

	/**
	 * Checks the fencing token of the innermost lock that the calling thread holds, as
	 * {@link #check(LockHandle)} does.
	 * @throws IllegalStateException if the thread holds no lock, or no transaction of
	 * this fence's database is active
	 * @throws StaleFencingTokenException if a newer holder of the lock has checked a
	 * greater token
	 */
	public void check() {
		check(LockHandle.current());
	}

	/**
	 * Records the lock's fencing token as the highest seen for its key, within the
	 * caller's transaction, or refuses it if a greater one was recorded: the caller is no
	 * longer the lock's holder, and its transaction must roll back (the exception, a
	 * {@link RuntimeException}, does so in a {@code @Transactional} method or a
	 * {@code TransactionTemplate}).
	 * @param lock the held lock
	 * @throws IllegalStateException if no transaction of this fence's database is active:
	 * outside one, nothing would undo the writes of a holder that is refused
	 * @throws StaleFencingTokenException if a newer holder of the lock has checked a
	 * greater token
	 */
	public void check(LockHandle lock) {
		Assert.notNull(lock, "'lock' must not be null");
		if (!TransactionSynchronizationManager.isActualTransactionActive()) {
			throw new IllegalStateException("No transaction is active, so the lock fence cannot check lock '"
					+ AbbreviatedKey.of(lock.key()) + "': the check protects only the writes of the transaction "
					+ "it runs in, which roll back when it refuses a stale holder. Check inside the transaction "
					+ "(@Transactional, or a TransactionTemplate callback), under the lock");
		}
		List<LockHandle> locks = (lock instanceof MultiKeyLock multiKey) ? multiKey.locks() : List.of(lock);
		this.jdbcTemplate.execute((ConnectionCallback<Void>) (connection) -> {
			if (connection.getAutoCommit()) {
				throw new IllegalStateException("The lock fence's connection is in auto-commit mode: the active "
						+ "transaction does not include the fence's database, so a refusal of lock '"
						+ AbbreviatedKey.of(lock.key()) + "' could not roll back its writes. Check inside a "
						+ "transaction of the DataSource that the writes go to");
			}
			for (LockHandle each : locks) {
				record(connection, each.key(), each.fencingToken());
			}
			return null;
		});
	}

	private void record(Connection connection, String key, long fencingToken) throws SQLException {
		String keyHash = keyHash(key);
		// No row with a token up to this one: insert the key's first row, unless the key
		// has a row already, with a greater token or inserted by another transaction
		// since
		// the first UPDATE (then compare with its token once more)
		if (raise(connection, keyHash, fencingToken) || insert(connection, keyHash, key, fencingToken)
				|| raise(connection, keyHash, fencingToken)) {
			return;
		}
		Long newer = recorded(connection, keyHash);
		throw (newer != null && newer > fencingToken) ? new StaleFencingTokenException(key, fencingToken, newer)
				: new StaleFencingTokenException(key, fencingToken);
	}

	private boolean raise(Connection connection, String keyHash, long fencingToken) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(this.raiseStatement)) {
			statement.setLong(1, fencingToken);
			statement.setString(2, keyHash);
			statement.setLong(3, fencingToken);
			return statement.executeUpdate() > 0;
		}
	}

	/**
	 * The key's recorded token, as the transaction sees it: a transaction that read
	 * before it checked may see its key's row as it was then (MySQL's {@code REPEATABLE
	 * READ}), before the newer holder's token.
	 */
	private @Nullable Long recorded(Connection connection, String keyHash) throws SQLException {
		try (PreparedStatement statement = connection.prepareStatement(this.selectStatement)) {
			statement.setString(1, keyHash);
			try (ResultSet row = statement.executeQuery()) {
				return row.next() ? row.getLong(1) : null;
			}
		}
	}

	/**
	 * Inserts the key's first row, inside a savepoint: where another transaction inserted
	 * it first, the duplicate key fails the insert alone (PostgreSQL would otherwise
	 * abort the whole transaction).
	 * @return whether the row was inserted
	 */
	private boolean insert(Connection connection, String keyHash, String key, long fencingToken) throws SQLException {
		Savepoint beforeInsert = connection.setSavepoint();
		try (PreparedStatement statement = connection.prepareStatement(this.insertStatement)) {
			statement.setString(1, keyHash);
			statement.setString(2, AbbreviatedKey.of(key));
			statement.setLong(3, fencingToken);
			statement.executeUpdate();
			return true;
		}
		catch (SQLException ex) {
			if (!isIntegrityConstraintViolation(ex)) {
				throw ex;
			}
			connection.rollback(beforeInsert);
			return false;
		}
	}

	private static boolean isIntegrityConstraintViolation(SQLException ex) {
		return ex.getSQLState() != null && ex.getSQLState().startsWith("23");
	}

	/**
	 * The key's primary key in the table: the SHA-256 of the key's UTF-16 characters (all
	 * of them, unpaired surrogates too, which an encoding would replace), which tells any
	 * two keys apart however long, in 64 hex digits.
	 */
	private static String keyHash(String key) {
		try {
			ByteBuffer characters = ByteBuffer.allocate(key.length() * 2);
			characters.asCharBuffer().put(key);
			return HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(characters.array()));
		}
		catch (NoSuchAlgorithmException ex) {
			throw new IllegalStateException("Every Java platform has SHA-256", ex);
		}
	}

	/**
	 * Creates the table of the tokens unless it exists, with
	 * {@link #createTableStatement()}. Call it outside a transaction (at start-up): on
	 * PostgreSQL, the failed look-up of a missing table would abort the transaction. Two
	 * applications that create the table at the same time both succeed.
	 * @throws DataAccessException if the table could not be created
	 */
	public void createTableIfMissing() {
		if (tableExists()) {
			return;
		}
		try {
			this.jdbcTemplate.execute(createTableStatement());
		}
		catch (DataAccessException ex) {
			if (!tableExists()) {
				throw ex;
			}
		}
	}

	private boolean tableExists() {
		try {
			this.jdbcTemplate.query("SELECT fencing_token FROM " + this.tableName + " WHERE 1 = 0", (row) -> {
			});
			return true;
		}
		catch (BadSqlGrammarException ex) {
			return false;
		}
	}

	/**
	 * The statement that creates the table of the tokens: the SHA-256 of the key as
	 * primary key, so that keys of any length fit, the key for people to read
	 * (abbreviated beyond {@value AbbreviatedKey#MAX_LENGTH} characters), and the highest
	 * fencing token checked for it.
	 * @return the {@code CREATE TABLE} statement
	 */
	public String createTableStatement() {
		return "CREATE TABLE " + this.tableName + " (\n\tkey_hash VARCHAR(64) NOT NULL PRIMARY KEY,\n"
				+ "\tlock_key VARCHAR(400) NOT NULL,\n\tfencing_token BIGINT NOT NULL\n)";
	}

}
