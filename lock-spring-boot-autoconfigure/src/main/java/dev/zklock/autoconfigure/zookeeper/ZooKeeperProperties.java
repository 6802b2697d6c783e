package dev.zklock.autoconfigure.zookeeper;

import java.nio.file.Path;
import java.time.Duration;

import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the ZooKeeper client used by distributed locks.
 */
@ConfigurationProperties("distributed-lock.zookeeper")
public class ZooKeeperProperties {

	/**
	 * Comma-separated host:port pairs of the ZooKeeper ensemble, such as
	 * 'zk1:2181,zk2:2181,zk3:2181'.
	 */
	private @Nullable String connectString;

	/**
	 * Session timeout requested from ZooKeeper; the server may narrow it. A holder that
	 * dies keeps its locks until its session expires.
	 */
	private Duration sessionTimeout = Duration.ofSeconds(60);

	/**
	 * Time to wait for a connection to ZooKeeper before an operation fails.
	 */
	private Duration connectionTimeout = Duration.ofSeconds(15);

	/**
	 * Namespace prepended to every path of the client, without a leading slash.
	 */
	private @Nullable String namespace;

	private final Retry retry = new Retry();

	private final Embedded embedded = new Embedded();

	private final Authentication authentication = new Authentication();

	private final Ssl ssl = new Ssl();

	public @Nullable String getConnectString() {
		return this.connectString;
	}

	public void setConnectString(@Nullable String connectString) {
		this.connectString = connectString;
	}

	public Duration getSessionTimeout() {
		return this.sessionTimeout;
	}

	public void setSessionTimeout(Duration sessionTimeout) {
		this.sessionTimeout = sessionTimeout;
	}

	public Duration getConnectionTimeout() {
		return this.connectionTimeout;
	}

	public void setConnectionTimeout(Duration connectionTimeout) {
		this.connectionTimeout = connectionTimeout;
	}

	public @Nullable String getNamespace() {
		return this.namespace;
	}

	public void setNamespace(@Nullable String namespace) {
		this.namespace = namespace;
	}

	public Retry getRetry() {
		return this.retry;
	}

	public Embedded getEmbedded() {
		return this.embedded;
	}

	public Authentication getAuthentication() {
		return this.authentication;
	}

	public Ssl getSsl() {
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

		public Duration getBaseSleep() {
			return this.baseSleep;
		}

		public void setBaseSleep(Duration baseSleep) {
			this.baseSleep = baseSleep;
		}

		public int getMaxRetries() {
			return this.maxRetries;
		}

		public void setMaxRetries(int maxRetries) {
			this.maxRetries = maxRetries;
		}

		public Duration getMaxSleep() {
			return this.maxSleep;
		}

		public void setMaxSleep(Duration maxSleep) {
			this.maxSleep = maxSleep;
		}

	}

	/**
	 * An in-process ZooKeeper server for development.
	 */
	public static class Embedded {

		/**
		 * Whether to start an in-process ZooKeeper server and connect to it, ignoring the
		 * connect string. For development only: it is a single server without
		 * replication.
		 */
		private boolean enabled;

		/**
		 * Port on 127.0.0.1 that the embedded server listens on; 0 picks a free port.
		 */
		private int port = 2181;

		/**
		 * Directory of the embedded server's data, kept across restarts; a temporary
		 * directory, deleted on shutdown, when not set.
		 */
		private @Nullable Path dataDirectory;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getPort() {
			return this.port;
		}

		public void setPort(int port) {
			this.port = port;
		}

		public @Nullable Path getDataDirectory() {
			return this.dataDirectory;
		}

		public void setDataDirectory(@Nullable Path dataDirectory) {
			this.dataDirectory = dataDirectory;
		}

	}

	/**
	 * Authentication of the client to ZooKeeper. When credentials are set, every node the
	 * client creates is readable and writable only by clients holding the same
	 * credentials.
	 */
	public static class Authentication {

		/**
		 * Authentication scheme; 'digest' (user name and password) is the only one
		 * supported.
		 */
		private String scheme = "digest";

		/**
		 * User name for digest authentication. Setting it turns on authentication and
		 * restricts the nodes the client creates to clients with the same credentials.
		 */
		private @Nullable String username;

		/**
		 * Password for digest authentication.
		 */
		private @Nullable String password;

		public String getScheme() {
			return this.scheme;
		}

		public void setScheme(String scheme) {
			this.scheme = scheme;
		}

		public @Nullable String getUsername() {
			return this.username;
		}

		public void setUsername(@Nullable String username) {
			this.username = username;
		}

		public @Nullable String getPassword() {
			return this.password;
		}

		public void setPassword(@Nullable String password) {
			this.password = password;
		}

	}

	/**
	 * TLS between the client and ZooKeeper's secure client port, configured for this
	 * client only.
	 */
	public static class Ssl {

		/**
		 * Whether to connect to ZooKeeper over TLS, through Netty.
		 */
		private boolean enabled;

		/**
		 * Path of the key store holding the client's certificate and private key, for
		 * servers that authenticate clients (ZooKeeper's default).
		 */
		private @Nullable Path keyStoreLocation;

		/**
		 * Password of the key store.
		 */
		private @Nullable String keyStorePassword;

		/**
		 * Type of the key store: JKS, PKCS12, PEM or BCFKS; deduced from the file name's
		 * extension when not set.
		 */
		private @Nullable String keyStoreType;

		/**
		 * Path of the trust store holding the certificates that the server's certificate
		 * must chain to; the JDK's default trust store when not set.
		 */
		private @Nullable Path trustStoreLocation;

		/**
		 * Password of the trust store.
		 */
		private @Nullable String trustStorePassword;

		/**
		 * Type of the trust store: JKS, PKCS12, PEM or BCFKS; deduced from the file
		 * name's extension when not set.
		 */
		private @Nullable String trustStoreType;

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public @Nullable Path getKeyStoreLocation() {
			return this.keyStoreLocation;
		}

		public void setKeyStoreLocation(@Nullable Path keyStoreLocation) {
			this.keyStoreLocation = keyStoreLocation;
		}

		public @Nullable String getKeyStorePassword() {
			return this.keyStorePassword;
		}

		public void setKeyStorePassword(@Nullable String keyStorePassword) {
			this.keyStorePassword = keyStorePassword;
		}

		public @Nullable String getKeyStoreType() {
			return this.keyStoreType;
		}

		public void setKeyStoreType(@Nullable String keyStoreType) {
			this.keyStoreType = keyStoreType;
		}

		public @Nullable Path getTrustStoreLocation() {
			return this.trustStoreLocation;
		}

		public void setTrustStoreLocation(@Nullable Path trustStoreLocation) {
			this.trustStoreLocation = trustStoreLocation;
		}

		public @Nullable String getTrustStorePassword() {
			return this.trustStorePassword;
		}

		public void setTrustStorePassword(@Nullable String trustStorePassword) {
			this.trustStorePassword = trustStorePassword;
		}

		public @Nullable String getTrustStoreType() {
			return this.trustStoreType;
		}

		public void setTrustStoreType(@Nullable String trustStoreType) {
			this.trustStoreType = trustStoreType;
		}

	}

}
