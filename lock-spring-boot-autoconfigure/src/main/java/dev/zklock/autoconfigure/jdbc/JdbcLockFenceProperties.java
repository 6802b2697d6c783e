package dev.zklock.autoconfigure.jdbc;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.sql.init.DatabaseInitializationMode;

/**
 * Configuration properties of the JDBC lock fence.
 */
@ConfigurationProperties(prefix = "distributed-lock.jdbc-fence", ignoreUnknownFields = false)
public class JdbcLockFenceProperties {

	/**
	 * Table in which the fence keeps the highest fencing token of each lock key: an SQL
	 * identifier, optionally qualified by a schema.
	 */
	private String tableName = "zklock_fence";

	/**
	 * When the fence creates its table at start-up if it is missing: 'always', 'embedded'
	 * (only in an embedded database such as H2) or 'never'.
	 */
	private DatabaseInitializationMode initializeSchema = DatabaseInitializationMode.NEVER;

	/**
	 * The table in which the fence keeps its tokens
	 * ({@code distributed-lock.jdbc-fence.table-name}).
	 * @return the table name
	 */
	public String getTableName() {
		return this.tableName;
	}

	/**
	 * Sets the table in which the fence keeps its tokens
	 * ({@code distributed-lock.jdbc-fence.table-name}).
	 * @param tableName the table name
	 */
	public void setTableName(String tableName) {
		this.tableName = tableName;
	}

	/**
	 * When the fence creates its table at start-up if it is missing
	 * ({@code distributed-lock.jdbc-fence.initialize-schema}).
	 * @return the initialization mode
	 */
	public DatabaseInitializationMode getInitializeSchema() {
		return this.initializeSchema;
	}

	/**
	 * Sets when the fence creates its table at start-up if it is missing
	 * ({@code distributed-lock.jdbc-fence.initialize-schema}).
	 * @param initializeSchema the initialization mode
	 */
	public void setInitializeSchema(DatabaseInitializationMode initializeSchema) {
		this.initializeSchema = initializeSchema;
	}

}
