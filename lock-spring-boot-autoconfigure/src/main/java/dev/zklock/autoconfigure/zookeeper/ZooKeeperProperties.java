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
	 * crashes keeps its locks until its session expires, and a pause of this process of
	 * half of it counts as a lost lock.
	 */
	private Duration sessionTimeout = Duration.ofSeconds(30);

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
	public Embedded getEmbedded() {
		return this.embedded;
	}

	/**
	 * The authentication of the client to ZooKeeper
	 * ({@code distributed-lock.zookeeper.authentication.*}).
	 * @return the authentication properties
	 */
	public Authentication getAuthentication() {
		return this.authentication;
	}

	/**
	 * The TLS between the client and ZooKeeper
	 * ({@code distributed-lock.zookeeper.ssl.*}).
	 * @return the TLS properties
	 */
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

		/**
		 * Whether to start an in-process ZooKeeper server and connect to it
		 * ({@code distributed-lock.zookeeper.embedded.enabled}).
		 * @return whether the embedded server is on
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets whether to start an in-process ZooKeeper server and connect to it
		 * ({@code distributed-lock.zookeeper.embedded.enabled}).
		 * @param enabled whether the embedded server is on
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * The port on 127.0.0.1 that the embedded server listens on
		 * ({@code distributed-lock.zookeeper.embedded.port}).
		 * @return the port
		 */
		public int getPort() {
			return this.port;
		}

		/**
		 * Sets the port on 127.0.0.1 that the embedded server listens on
		 * ({@code distributed-lock.zookeeper.embedded.port}).
		 * @param port the port
		 */
		public void setPort(int port) {
			this.port = port;
		}

		/**
		 * The directory of the embedded server's data
		 * ({@code distributed-lock.zookeeper.embedded.data-directory}).
		 * @return the data directory, or {@code null} for a temporary one
		 */
		public @Nullable Path getDataDirectory() {
			return this.dataDirectory;
		}

		/**
		 * Sets the directory of the embedded server's data
		 * ({@code distributed-lock.zookeeper.embedded.data-directory}).
		 * @param dataDirectory the data directory, or {@code null} for a temporary one
		 */
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

		/**
		 * The authentication scheme
		 * ({@code distributed-lock.zookeeper.authentication.scheme}).
		 * @return the scheme
		 */
		public String getScheme() {
			return this.scheme;
		}

		/**
		 * Sets the authentication scheme
		 * ({@code distributed-lock.zookeeper.authentication.scheme}).
		 * @param scheme the scheme
		 */
		public void setScheme(String scheme) {
			this.scheme = scheme;
		}

		/**
		 * The user name for digest authentication
		 * ({@code distributed-lock.zookeeper.authentication.username}).
		 * @return the user name, or {@code null}
		 */
		public @Nullable String getUsername() {
			return this.username;
		}

		/**
		 * Sets the user name for digest authentication
		 * ({@code distributed-lock.zookeeper.authentication.username}).
		 * @param username the user name, or {@code null}
		 */
		public void setUsername(@Nullable String username) {
			this.username = username;
		}

		/**
		 * The password for digest authentication
		 * ({@code distributed-lock.zookeeper.authentication.password}).
		 * @return the password, or {@code null}
		 */
		public @Nullable String getPassword() {
			return this.password;
		}

		/**
		 * Sets the password for digest authentication
		 * ({@code distributed-lock.zookeeper.authentication.password}).
		 * @param password the password, or {@code null}
		 */
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

		/**
		 * Whether to connect to ZooKeeper over TLS
		 * ({@code distributed-lock.zookeeper.ssl.enabled}).
		 * @return whether TLS is on
		 */
		public boolean isEnabled() {
			return this.enabled;
		}

		/**
		 * Sets whether to connect to ZooKeeper over TLS
		 * ({@code distributed-lock.zookeeper.ssl.enabled}).
		 * @param enabled whether TLS is on
		 */
		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		/**
		 * The path of the key store holding the client's certificate and private key
		 * ({@code distributed-lock.zookeeper.ssl.key-store-location}).
		 * @return the key store location, or {@code null}
		 */
		public @Nullable Path getKeyStoreLocation() {
			return this.keyStoreLocation;
		}

		/**
		 * Sets the path of the key store holding the client's certificate and private key
		 * ({@code distributed-lock.zookeeper.ssl.key-store-location}).
		 * @param keyStoreLocation the key store location, or {@code null}
		 */
		public void setKeyStoreLocation(@Nullable Path keyStoreLocation) {
			this.keyStoreLocation = keyStoreLocation;
		}

		/**
		 * The password of the key store
		 * ({@code distributed-lock.zookeeper.ssl.key-store-password}).
		 * @return the key store password, or {@code null}
		 */
		public @Nullable String getKeyStorePassword() {
			return this.keyStorePassword;
		}

		/**
		 * Sets the password of the key store
		 * ({@code distributed-lock.zookeeper.ssl.key-store-password}).
		 * @param keyStorePassword the key store password, or {@code null}
		 */
		public void setKeyStorePassword(@Nullable String keyStorePassword) {
			this.keyStorePassword = keyStorePassword;
		}

		/**
		 * The type of the key store
		 * ({@code distributed-lock.zookeeper.ssl.key-store-type}).
		 * @return the key store type, or {@code null}
		 */
		public @Nullable String getKeyStoreType() {
			return this.keyStoreType;
		}

		/**
		 * Sets the type of the key store
		 * ({@code distributed-lock.zookeeper.ssl.key-store-type}).
		 * @param keyStoreType the key store type, or {@code null}
		 */
		public void setKeyStoreType(@Nullable String keyStoreType) {
			this.keyStoreType = keyStoreType;
		}

		/**
		 * The path of the trust store holding the certificates that the server's
		 * certificate must chain to
		 * ({@code distributed-lock.zookeeper.ssl.trust-store-location}).
		 * @return the trust store location, or {@code null}
		 */
		public @Nullable Path getTrustStoreLocation() {
			return this.trustStoreLocation;
		}

		/**
		 * Sets the path of the trust store holding the certificates that the server's
		 * certificate must chain to
		 * ({@code distributed-lock.zookeeper.ssl.trust-store-location}).
		 * @param trustStoreLocation the trust store location, or {@code null}
		 */
		public void setTrustStoreLocation(@Nullable Path trustStoreLocation) {
			this.trustStoreLocation = trustStoreLocation;
		}

		/**
		 * The password of the trust store
		 * ({@code distributed-lock.zookeeper.ssl.trust-store-password}).
		 * @return the trust store password, or {@code null}
		 */
		public @Nullable String getTrustStorePassword() {
			return this.trustStorePassword;
		}

		/**
		 * Sets the password of the trust store
		 * ({@code distributed-lock.zookeeper.ssl.trust-store-password}).
		 * @param trustStorePassword the trust store password, or {@code null}
		 */
		public void setTrustStorePassword(@Nullable String trustStorePassword) {
			this.trustStorePassword = trustStorePassword;
		}

		/**
		 * The type of the trust store
		 * ({@code distributed-lock.zookeeper.ssl.trust-store-type}).
		 * @return the trust store type, or {@code null}
		 */
		public @Nullable String getTrustStoreType() {
			return this.trustStoreType;
		}

		/**
		 * Sets the type of the trust store
		 * ({@code distributed-lock.zookeeper.ssl.trust-store-type}).
		 * @param trustStoreType the trust store type, or {@code null}
		 */
		public void setTrustStoreType(@Nullable String trustStoreType) {
			this.trustStoreType = trustStoreType;
		}

	}

}
