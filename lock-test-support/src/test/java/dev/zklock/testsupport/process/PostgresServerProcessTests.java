package dev.zklock.testsupport.process;

import java.nio.file.Files;
import java.nio.file.Path;
import java.sql.Connection;
import java.sql.DriverManager;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.sql.Statement;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

/**
 * Tests for {@link PostgresServerProcess}: a real PostgreSQL server with its shipped
 * durability, killed and restarted on the same port and data.
 */
class PostgresServerProcessTests {

	@Test
	void aCommittedRowSurvivesAKillAndTheRestartOnTheSamePort() throws Exception {
		assumeTrue(PostgresServerProcess.isAvailable(), "PostgreSQL's programs are not available here");
		Path directory = Files.createTempDirectory("zklock-postgres-test-");
		try (PostgresServerProcess server = PostgresServerProcess.start(directory,
				PostgresServerProcess.Durability.SHIPPED)) {
			server.createDatabase("orders");
			try (Connection connection = DriverManager.getConnection(server.jdbcUrl("orders"));
					Statement statement = connection.createStatement()) {
				statement.execute("CREATE TABLE orders (id INT PRIMARY KEY)");
				statement.execute("INSERT INTO orders VALUES (28)");
				server.kill();
				assertThatExceptionOfType(SQLException.class).isThrownBy(() -> statement.executeQuery("SELECT 1"));
			}
			int port = server.port();
			server.restart();
			assertThat(server.port()).isEqualTo(port);
			try (Connection connection = DriverManager.getConnection(server.jdbcUrl("orders"));
					Statement statement = connection.createStatement();
					ResultSet rows = statement.executeQuery("SELECT id FROM orders")) {
				assertThat(rows.next()).isTrue();
				assertThat(rows.getInt(1)).isEqualTo(28);
			}
		}
		assertThat(Files.exists(directory)).isFalse();
	}

	@Test
	void aDatabaseNameThatIsNotAPlainIdentifierIsRefusedNamingIt() throws Exception {
		assumeTrue(PostgresServerProcess.isAvailable(), "PostgreSQL's programs are not available here");
		try (PostgresServerProcess server = PostgresServerProcess
			.start(Files.createTempDirectory("zklock-postgres-test-"), PostgresServerProcess.Durability.NONE)) {
			assertThatIllegalArgumentException().isThrownBy(() -> server.createDatabase("orders; DROP"))
				.withMessageContaining("'orders; DROP'");
		}
	}

}
