package dev.zklock.autoconfigure.zookeeper;

import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

/**
 * Configuration properties of the ZooKeeper client used by distributed locks.
 */
@ConfigurationProperties("distributed-lock.zookeeper")
public class ZooKeeperProperties {

	/**
	 * Comma-separated host:port pairs of the ZooKeeper ensemble, such as
	 * 'zk1:2181,zk2:2181,zk3:2181'; a list of host:port pairs is joined with commas.
	 */
	private @Nullable String connectString;

	/**
	 * Session timeout requested from ZooKeeper; the server may narrow it. A holder that
	 * crashes keeps its locks until its session expires, and a pause of this process of
	 * half of it counts as a lost lock.
	 */
	private Duration sessionTimeout = Duration.ofSeconds(30);

	/**
	 * Time to wait for a connection to ZooKeeper before an operation fails.
	 */
	private Duration connectionTimeout = Duration.ofSeconds(15);

	/**
	 * Longest time that closing the client, at shutdown, waits for ZooKeeper to end the
	 * session, which deletes this process's lock nodes at once. Without an answer
	 * (ZooKeeper down or frozen), shutdown goes on and the nodes stay until the session
	 * expires.
	 */
	private Duration closeTimeout = Duration.ofSeconds(1);

	/**
	 * Namespace prepended to every path of the client, without a leading slash.
	 */
	private @Nullable String namespace;

	/**
	 * Number of ZooKeeper sessions, from 1 to 32, over which the lock registry spreads
	 * its keys by their hash: each session is a client built like the first and one more
	 * connection to ZooKeeper, and a lock waits only for the requests of its own
	 * session's keys. Applies only when the auto-configuration builds the client: with
	 * the application's own CuratorFramework, the registry has one session.
	 */
	private int sessions = 1;

	private final Retry retry = new Retry();

	@NestedConfigurationProperty
	private final EmbeddedZooKeeperProperties embedded = new EmbeddedZooKeeperProperties();

	@NestedConfigurationProperty
	private final ZooKeeperAuthenticationProperties authentication = new ZooKeeperAuthenticationProperties();

	@NestedConfigurationProperty
	private final ZooKeeperSslProperties ssl = new ZooKeeperSslProperties();

	/**
	 * The comma-separated host:port pairs of the ZooKeeper ensemble
	 * ({@code distributed-lock.zookeeper.connect-string}).
	 * @return the connect string, or {@code null}
	 */
	public @Nullable String getConnectString() {
		return this.connectString;
	}

	/**
	 * Sets the comma-separated host:port pairs of the ZooKeeper ensemble
	 * ({@code distributed-lock.zookeeper.connect-string}).
	 * @param connectString the connect string, or {@code null}
	 */
	public void setConnectString(@Nullable String connectString) {
		this.connectString = connectString;
	}

	/**
	 * The session timeout requested from ZooKeeper
	 * ({@code distributed-lock.zookeeper.session-timeout}).
	 * @return the session timeout
	 */
	public Duration getSessionTimeout() {
		return this.sessionTimeout;
	}

	/**
	 * Sets the session timeout requested from ZooKeeper
	 * ({@code distributed-lock.zookeeper.session-timeout}).
	 * @param sessionTimeout the session timeout
	 */
	public void setSessionTimeout(Duration sessionTimeout) {
		this.sessionTimeout = sessionTimeout;
	}

	/**
	 * The time to wait for a connection to ZooKeeper before an operation fails
	 * ({@code distributed-lock.zookeeper.connection-timeout}).
	 * @return the connection timeout
	 */
	public Duration getConnectionTimeout() {
		return this.connectionTimeout;
	}

	/**
	 * Sets the time to wait for a connection to ZooKeeper before an operation fails
	 * ({@code distributed-lock.zookeeper.connection-timeout}).
	 * @param connectionTimeout the connection timeout
	 */
	public void setConnectionTimeout(Duration connectionTimeout) {
		this.connectionTimeout = connectionTimeout;
	}

	/**
	 * The longest time that closing the client waits for ZooKeeper to end the session
	 * ({@code distributed-lock.zookeeper.close-timeout}).
	 * @return the close timeout
	 */
	public Duration getCloseTimeout() {
		return this.closeTimeout;
	}

	/**
	 * Sets the longest time that closing the client waits for ZooKeeper to end the
	 * session ({@code distributed-lock.zookeeper.close-timeout}).
	 * @param closeTimeout the close timeout
	 */
	public void setCloseTimeout(Duration closeTimeout) {
		this.closeTimeout = closeTimeout;
	}

	/**
	 * The namespace prepended to every path of the client
	 * ({@code distributed-lock.zookeeper.namespace}).
	 * @return the namespace, or {@code null}
	 */
	public @Nullable String getNamespace() {
		return this.namespace;
	}

	/**
	 * Sets the namespace prepended to every path of the client
	 * ({@code distributed-lock.zookeeper.namespace}).
	 * @param namespace the namespace, or {@code null}
	 */
	public void setNamespace(@Nullable String namespace) {
		this.namespace = namespace;
	}

	/**
	 * The number of ZooKeeper sessions over which the lock registry spreads its keys
	 * ({@code distributed-lock.zookeeper.sessions}).
	 * @return the number of sessions
	 */
	public int getSessions() {
		return this.sessions;
	}

	/**
	 * Sets the number of ZooKeeper sessions over which the lock registry spreads its keys
	 * ({@code distributed-lock.zookeeper.sessions}).
	 * @param sessions the number of sessions
	 */
	public void setSessions(int sessions) {
		this.sessions = sessions;
	}

	/**
	 * The retry of the operations that fail on a connection loss
	 * ({@code distributed-lock.zookeeper.retry.*}).
	 * @return the retry properties
	 */
	public Retry getRetry() {
		return this.retry;
	}

	/**
	 * The in-process ZooKeeper server for development
	 * ({@code distributed-lock.zookeeper.embedded.*}).
	 * @return the embedded server properties
	 */
	public EmbeddedZooKeeperProperties getEmbedded() {
		return this.embedded;
	}

	/**
	 * The authentication of the client to ZooKeeper
	 * ({@code distributed-lock.zookeeper.authentication.*}).
	 * @return the authentication properties
	 */
	public ZooKeeperAuthenticationProperties getAuthentication() {
		return this.authentication;
	}

	/**
	 * The TLS between the client and ZooKeeper
	 * ({@code distributed-lock.zookeeper.ssl.*}).
	 * @return the TLS properties
	 */
	public ZooKeeperSslProperties getSsl() {
		return this.ssl;
	}

	/**
	 * Retry of ZooKeeper operations that fail on a connection loss, with exponential
	 * back-off.
	 */
	public static class Retry {

		/**
		 * Sleep before the first retry; later retries sleep exponentially longer.
		 */
		private Duration baseSleep = Duration.ofMillis(50);

		/**
		 * Maximum number of retries of one operation, at most 29 (Curator's limit).
		 */
		private int maxRetries = 10;

		/**
		 * Maximum sleep between two retries.
		 */
		private Duration maxSleep = Duration.ofMillis(500);

		/**
		 * The sleep before the first retry
		 * ({@code distributed-lock.zookeeper.retry.base-sleep}).
		 * @return the base sleep
		 */
		public Duration getBaseSleep() {
			return this.baseSleep;
		}

		/**
		 * Sets the sleep before the first retry
		 * ({@code distributed-lock.zookeeper.retry.base-sleep}).
		 * @param baseSleep the base sleep
		 */
		public void setBaseSleep(Duration baseSleep) {
			this.baseSleep = baseSleep;
		}

		/**
		 * The maximum number of retries of one operation
		 * ({@code distributed-lock.zookeeper.retry.max-retries}).
		 * @return the maximum number of retries
		 */
		public int getMaxRetries() {
			return this.maxRetries;
		}

		/**
		 * Sets the maximum number of retries of one operation
		 * ({@code distributed-lock.zookeeper.retry.max-retries}).
		 * @param maxRetries the maximum number of retries
		 */
		public void setMaxRetries(int maxRetries) {
			this.maxRetries = maxRetries;
		}

		/**
		 * The maximum sleep between two retries
		 * ({@code distributed-lock.zookeeper.retry.max-sleep}).
		 * @return the maximum sleep
		 */
		public Duration getMaxSleep() {
			return this.maxSleep;
		}

		/**
		 * Sets the maximum sleep between two retries
		 * ({@code distributed-lock.zookeeper.retry.max-sleep}).
		 * @param maxSleep the maximum sleep
		 */
		public void setMaxSleep(Duration maxSleep) {
			this.maxSleep = maxSleep;
		}

	}

}
