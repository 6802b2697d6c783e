package dev.zklock.autoconfigure.jdbc;

import java.nio.file.Path;

import javax.sql.DataSource;

import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.jdbc.JdbcLockFence;
import org.h2.jdbcx.JdbcDataSource;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.jdbc.autoconfigure.DataSourceAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.jdbc.core.JdbcTemplate;

import static org.assertj.core.api.Assertions.assertThat;

class JdbcLockFenceAutoConfigurationTests {

	private final ApplicationContextRunner withoutDataSource = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class,
				DistributedLockAutoConfiguration.class, JdbcLockFenceAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2999");

	private final ApplicationContextRunner contextRunner = this.withoutDataSource
		.withConfiguration(AutoConfigurations.of(DataSourceAutoConfiguration.class));

	@Test
	void providesAFenceOfTheDataSourceInItsDefaultTableWithoutCreatingIt() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(JdbcLockFence.class);
			assertThat(context.getBean(JdbcLockFence.class).getTableName()).isEqualTo("zklock_fence");
			assertThat(tables(context)).doesNotContain("ZKLOCK_FENCE");
		});
	}

	@Test
	void createsTheTableWhenAskedTo() {
		this.contextRunner.withPropertyValues("distributed-lock.jdbc-fence.initialize-schema=always")
			.run((context) -> assertThat(tables(context)).contains("ZKLOCK_FENCE"));
	}

	@Test
	void createsTheTableOfAnEmbeddedDatabaseInEmbeddedMode() {
		this.contextRunner.withPropertyValues("distributed-lock.jdbc-fence.initialize-schema=embedded")
			.run((context) -> assertThat(tables(context)).contains("ZKLOCK_FENCE"));
	}

	@Test
	void leavesAServerDatabaseAloneInEmbeddedMode(@TempDir Path data) {
		this.contextRunner
			.withPropertyValues("distributed-lock.jdbc-fence.initialize-schema=embedded",
					"spring.datasource.url=jdbc:h2:file:" + data.resolve("db"))
			.run((context) -> assertThat(tables(context)).doesNotContain("ZKLOCK_FENCE"));
	}

	@Test
	void bindsTheTableName() {
		this.contextRunner
			.withPropertyValues("distributed-lock.jdbc-fence.table-name=lock_tokens",
					"distributed-lock.jdbc-fence.initialize-schema=always")
			.run((context) -> {
				assertThat(context.getBean(JdbcLockFence.class).getTableName()).isEqualTo("lock_tokens");
				assertThat(tables(context)).contains("LOCK_TOKENS").doesNotContain("ZKLOCK_FENCE");
			});
	}

	@Test
	void tableNameThatIsNotAnSqlIdentifierFailsStartUpNamingTheProperty() {
		this.contextRunner.withPropertyValues("distributed-lock.jdbc-fence.table-name=fence; DROP TABLE orders")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("distributed-lock.jdbc-fence.table-name")
				.hasMessageContaining("is not an SQL identifier"));
	}

	@Test
	void backsOffWhenTheApplicationDefinesAFence() {
		this.contextRunner
			.withBean("myFence", JdbcLockFence.class, () -> new JdbcLockFence(new JdbcDataSource(), "my_fence"))
			.run((context) -> assertThat(context).getBean(JdbcLockFence.class)
				.isSameAs(context.getBean("myFence"))
				.extracting(JdbcLockFence::getTableName)
				.isEqualTo("my_fence"));
	}

	@Test
	void backsOffWithoutADataSource() {
		this.withoutDataSource.run((context) -> assertThat(context).doesNotHaveBean(JdbcLockFence.class));
	}

	@Test
	void backsOffWithTwoDataSourcesAndNoPrimary() {
		this.withoutDataSource.withBean("orders", DataSource.class, JdbcDataSource::new)
			.withBean("invoices", DataSource.class, JdbcDataSource::new)
			.run((context) -> assertThat(context).doesNotHaveBean(JdbcLockFence.class));
	}

	@Test
	void backsOffWithoutSpringJdbc() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(JdbcTemplate.class))
			.run((context) -> assertThat(context).doesNotHaveBean(JdbcLockFence.class));
	}

	@Test
	void backsOffWithoutALockTemplate() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(DataSourceAutoConfiguration.class, JdbcLockFenceAutoConfiguration.class))
			.run((context) -> assertThat(context).hasSingleBean(DataSource.class).doesNotHaveBean(JdbcLockFence.class));
	}

	private static Iterable<String> tables(AssertableApplicationContext context) {
		return new JdbcTemplate(context.getBean(DataSource.class))
			.queryForList("SELECT table_name FROM information_schema.tables", String.class);
	}

}
