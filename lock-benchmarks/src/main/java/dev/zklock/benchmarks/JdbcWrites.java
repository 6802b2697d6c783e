package dev.zklock.benchmarks;

import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Method;
import java.lang.reflect.Proxy;
import java.sql.Connection;
import java.sql.SQLException;
import java.util.Locale;
import java.util.concurrent.atomic.LongAdder;

import com.zaxxer.hikari.HikariConfig;
import com.zaxxer.hikari.HikariDataSource;

import org.springframework.jdbc.datasource.DelegatingDataSource;

/**
 * A pool of connections to a database that counts the writes sent through it: every
 * {@code INSERT}, {@code UPDATE} and {@code DELETE} statement that a connection prepares,
 * counted as it is prepared, whether it then changes a row or not (as a ZooKeeper write
 * that fails is still a write). The lock libraries on PostgreSQL send every statement
 * through {@code JdbcTemplate}, which prepares a statement for each execution. The pool
 * is HikariCP at its defaults, as Spring Boot gives an application one: at most ten
 * connections.
 */
final class JdbcWrites extends DelegatingDataSource implements AutoCloseable {

	private final LongAdder writes = new LongAdder();

	private final HikariDataSource pool;

	private JdbcWrites(HikariDataSource pool) {
		super(pool);
		this.pool = pool;
	}

	/**
	 * Opens a pool.
	 * @param jdbcUrl the database's JDBC URL, with its user
	 * @param name the pool's name in the logs
	 * @return the pool
	 */
	static JdbcWrites open(String jdbcUrl, String name) {
		HikariConfig config = new HikariConfig();
		config.setJdbcUrl(jdbcUrl);
		config.setPoolName(name);
		return new JdbcWrites(new HikariDataSource(config));
	}

	/**
	 * The writes prepared so far on every connection of the pool.
	 * @return the count
	 */
	long count() {
		return this.writes.sum();
	}

	@Override
	public Connection getConnection() throws SQLException {
		return counting(super.getConnection());
	}

	@Override
	public Connection getConnection(String username, String password) throws SQLException {
		return counting(super.getConnection(username, password));
	}

	private Connection counting(Connection connection) {
		return (Connection) Proxy.newProxyInstance(getClass().getClassLoader(), new Class<?>[] { Connection.class },
				(proxy, method, arguments) -> {
					if (method.getName().equals("prepareStatement") && isWrite((String) arguments[0])) {
						this.writes.increment();
					}
					return invoke(connection, method, arguments);
				});
	}

	private static Object invoke(Connection connection, Method method, Object[] arguments) throws Throwable {
		try {
			return method.invoke(connection, arguments);
		}
		catch (InvocationTargetException ex) {
			throw ex.getCause();
		}
	}

	private static boolean isWrite(String sql) {
		String statement = sql.stripLeading().toUpperCase(Locale.ROOT);
		return statement.startsWith("INSERT") || statement.startsWith("UPDATE") || statement.startsWith("DELETE");
	}

	@Override
	public void close() {
		this.pool.close();
	}

}
