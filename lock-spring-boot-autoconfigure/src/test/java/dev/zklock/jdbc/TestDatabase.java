package dev.zklock.jdbc;

import java.util.UUID;

import javax.sql.DataSource;

import dev.zklock.testsupport.PostgresTestServer;
import org.h2.jdbcx.JdbcDataSource;

import org.springframework.jdbc.core.JdbcTemplate;

/**
 * The databases the fence is tested on, each test with a new, empty database.
 */
enum TestDatabase {

	/**
	 * An in-memory H2 database, waiting up to 10 s for another transaction's row lock.
	 */
	H2 {

		@Override
		DataSource create(PostgresTestServer postgres) {
			JdbcDataSource dataSource = new JdbcDataSource();
			dataSource.setURL("jdbc:h2:mem:" + UUID.randomUUID() + ";DB_CLOSE_DELAY=-1;LOCK_TIMEOUT=10000");
			return dataSource;
		}

		@Override
		int waitingStatements(JdbcTemplate jdbc) {
			return jdbc.queryForObject("SELECT COUNT(*) FROM INFORMATION_SCHEMA.SESSIONS "
					+ "WHERE SESSION_ID <> SESSION_ID() AND EXECUTING_STATEMENT IS NOT NULL", Integer.class);
		}

	},

	/**
	 * A database on a real PostgreSQL server.
	 */
	POSTGRESQL {

		@Override
		DataSource create(PostgresTestServer postgres) throws Exception {
			return postgres.newDatabase();
		}

		@Override
		int waitingStatements(JdbcTemplate jdbc) {
			return jdbc.queryForObject(
					"SELECT COUNT(*) FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock'",
					Integer.class);
		}

	};

	/**
	 * A new, empty database.
	 * @param postgres the server of PostgreSQL databases
	 * @return the database
	 * @throws Exception if it could not be created
	 */
	abstract DataSource create(PostgresTestServer postgres) throws Exception;

	/**
	 * How many statements of other sessions wait for a lock that another transaction
	 * holds. H2 does not tell which statements wait, so on H2 this counts the statements
	 * that run: in the tests, those that run long enough to be seen are waiting.
	 * @param jdbc the database
	 * @return the number of waiting statements
	 */
	abstract int waitingStatements(JdbcTemplate jdbc);

}
