package dev.zklock.autoconfigure.zookeeper;

import java.nio.file.Path;

import org.jspecify.annotations.Nullable;

/**
 * TLS between the client and ZooKeeper's secure client port, configured for this client
 * only.
 */
public class ZooKeeperSslProperties {

	/**
	 * Whether to connect to ZooKeeper over TLS, through Netty. On when a bundle is set,
	 * unless set to false.
	 */
	private @Nullable Boolean enabled;

	/**
	 * Name of the SSL bundle (spring.ssl.bundle.*) that holds the client's key and the
	 * certificates the server's certificate must chain to, instead of the key-store and
	 * trust-store properties.
	 */
	private @Nullable String bundle;

	/**
	 * Path of the key store holding the client's certificate and private key, for servers
	 * that authenticate clients (ZooKeeper's default).
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
	 * Path of the trust store holding the certificates that the server's certificate must
	 * chain to; the JDK's default trust store when not set.
	 */
	private @Nullable Path trustStoreLocation;

	/**
	 * Password of the trust store.
	 */
	private @Nullable String trustStorePassword;

	/**
	 * Type of the trust store: JKS, PKCS12, PEM or BCFKS; deduced from the file name's
	 * extension when not set.
	 */
	private @Nullable String trustStoreType;

	/**
	 * Whether to connect to ZooKeeper over TLS
	 * ({@code distributed-lock.zookeeper.ssl.enabled}); when it is not set, whether a
	 * {@link #getBundle() bundle} is.
	 * @return whether TLS is on
	 */
	public boolean isEnabled() {
		return (this.enabled != null) ? this.enabled : this.bundle != null;
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
	 * The name of the SSL bundle that holds the client's key and the trusted certificates
	 * ({@code distributed-lock.zookeeper.ssl.bundle}), one of those that Spring Boot
	 * configures under {@code spring.ssl.bundle.*}.
	 * @return the bundle name, or {@code null}
	 */
	public @Nullable String getBundle() {
		return this.bundle;
	}

	/**
	 * Sets the name of the SSL bundle that holds the client's key and the trusted
	 * certificates ({@code distributed-lock.zookeeper.ssl.bundle}); it cannot be combined
	 * with the key-store and trust-store properties.
	 * @param bundle the bundle name, or {@code null}
	 */
	public void setBundle(@Nullable String bundle) {
		this.bundle = bundle;
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
	 * The type of the key store ({@code distributed-lock.zookeeper.ssl.key-store-type}).
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
	 * The path of the trust store holding the certificates that the server's certificate
	 * must chain to ({@code distributed-lock.zookeeper.ssl.trust-store-location}).
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
