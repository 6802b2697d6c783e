package dev.zklock.autoconfigure.zookeeper;

import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.security.UnrecoverableKeyException;

import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.zookeeper.ClientCnxnSocketNetty;
import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.apache.zookeeper.common.KeyStoreFileType;
import org.apache.zookeeper.common.X509Util;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.ssl.NoSuchSslBundleException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundles;
import org.springframework.core.Ordered;
import org.springframework.util.StringUtils;

/**
 * Applies {@code distributed-lock.zookeeper.ssl.*}: hands the client a
 * {@link ZKClientConfig} of its own that connects through Netty over TLS with the
 * configured key store and trust store, or with those of an SSL bundle. Nothing is set
 * JVM-wide, so other ZooKeeper clients in the process keep their own settings. The stores
 * are opened once at start-up, so that a missing file, a wrong password, an unknown type
 * or bundle fails start-up naming the property instead of failing every connection
 * attempt later. A bundle's stores are written to files that only this process's user can
 * read ({@link SslBundleStoreFiles}), since ZooKeeper's client reads files only; they are
 * deleted when this customizer is closed. Runs before the application's customizers.
 */
final class TlsClientConfigCustomizer implements CuratorFrameworkBuilderCustomizer, Ordered, AutoCloseable {

	private static final String BUNDLE = Store.PREFIX + "bundle";

	private final Store keyStore;

	private final Store trustStore;

	private final @Nullable SslBundleStoreFiles bundleFiles;

	/**
	 * Checks the TLS properties and, when they name a bundle, writes its stores.
	 * @param ssl the TLS properties
	 * @param bundles Spring Boot's SSL bundles, or {@code null} if there are none
	 * @throws InvalidConfigurationPropertyValueException if the properties are invalid or
	 * ambiguous, or name an unknown bundle
	 */
	TlsClientConfigCustomizer(ZooKeeperSslProperties ssl, @Nullable SslBundles bundles) {
		this.keyStore = new Store("key-store", false, ssl.getKeyStoreLocation(), ssl.getKeyStorePassword(),
				ssl.getKeyStoreType());
		this.trustStore = new Store("trust-store", true, ssl.getTrustStoreLocation(), ssl.getTrustStorePassword(),
				ssl.getTrustStoreType());
		String bundle = ssl.getBundle();
		if (bundle != null) {
			this.keyStore.checkUnsetBeside(bundle);
			this.trustStore.checkUnsetBeside(bundle);
			this.bundleFiles = SslBundleStoreFiles.write(bundle, bundle(bundle, bundles));
		}
		else {
			this.keyStore.check();
			this.trustStore.check();
			this.bundleFiles = null;
		}
	}

	private static SslBundle bundle(String name, @Nullable SslBundles bundles) {
		if (!StringUtils.hasText(name)) {
			throw new InvalidConfigurationPropertyValueException(BUNDLE, name,
					"It must name an SSL bundle configured under spring.ssl.bundle.*.");
		}
		if (bundles == null) {
			throw new InvalidConfigurationPropertyValueException(BUNDLE, name,
					"There are no SSL bundles to find it in: Spring Boot's SslAutoConfiguration, which makes them "
							+ "from spring.ssl.bundle.*, is not in the application context.");
		}
		try {
			return bundles.getBundle(name);
		}
		catch (NoSuchSslBundleException ex) {
			throw new InvalidConfigurationPropertyValueException(BUNDLE, name,
					"No SSL bundle of that name is configured; configure it under spring.ssl.bundle.jks." + name
							+ ".* or spring.ssl.bundle.pem." + name + ".*, or name one that is.",
					ex);
		}
	}

	@Override
	public void customize(CuratorFrameworkFactory.Builder builder) {
		builder.zkClientConfig(clientConfig());
	}

	private ZKClientConfig clientConfig() {
		ZKClientConfig config = new ZKClientConfig();
		config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
		config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
		if (this.bundleFiles != null) {
			this.bundleFiles.applyTo(config);
			return config;
		}
		try (ClientX509Util x509 = new ClientX509Util()) {
			this.keyStore.applyTo(config, x509.getSslKeystoreLocationProperty(), x509.getSslKeystorePasswdProperty(),
					x509.getSslKeystoreTypeProperty());
			this.trustStore.applyTo(config, x509.getSslTruststoreLocationProperty(),
					x509.getSslTruststorePasswdProperty(), x509.getSslTruststoreTypeProperty());
		}
		return config;
	}

	@Override
	public int getOrder() {
		return 0;
	}

	/**
	 * Deletes the files of a bundle's stores, if any.
	 */
	@Override
	public void close() {
		if (this.bundleFiles != null) {
			this.bundleFiles.close();
		}
	}

	/**
	 * The key store or the trust store, as configured.
	 */
	private record Store(String name, boolean trust, @Nullable Path location, @Nullable String password,
			@Nullable String type) {

		private static final String PREFIX = "distributed-lock.zookeeper.ssl.";

		private static final String HIDDEN = "******";

		void applyTo(ZKClientConfig config, String locationKey, String passwordKey, String typeKey) {
			if (this.location == null) {
				return;
			}
			config.setProperty(locationKey, this.location.toAbsolutePath().toString());
			if (this.password != null) {
				config.setProperty(passwordKey, this.password);
			}
			if (this.type != null) {
				config.setProperty(typeKey, this.type);
			}
		}

		/**
		 * Fails unless none of this store's properties is set, since the bundle gives the
		 * store.
		 */
		void checkUnsetBeside(String bundle) {
			if (this.location != null) {
				throw setBeside("location", this.location, bundle);
			}
			if (this.password != null) {
				throw setBeside("password", HIDDEN, bundle);
			}
			if (this.type != null) {
				throw setBeside("type", this.type, bundle);
			}
		}

		private InvalidConfigurationPropertyValueException setBeside(String property, Object value, String bundle) {
			return invalid(property, value, "It cannot be set together with " + BUNDLE + " (" + bundle
					+ "), which gives the " + description() + "; set one or the other.", null);
		}

		void check() {
			if (this.location == null) {
				if (this.password != null || this.type != null) {
					throw invalid("location", null,
							"It must be set when the " + description() + "'s password or type is set.", null);
				}
				return;
			}
			if (!Files.isRegularFile(this.location) || !Files.isReadable(this.location)) {
				throw invalid("location", this.location, "It must be a readable file.", null);
			}
			KeyStoreFileType fileType;
			try {
				fileType = KeyStoreFileType.fromPropertyValueOrFileName(this.type, this.location.toString());
			}
			catch (IllegalArgumentException ex) {
				throw invalid("type", this.type, "It must be JKS, PKCS12, PEM or BCFKS; when it is not set, the file "
						+ "name must end in .jks, .p12, .pfx, .pem or .bcfks.", null);
			}
			load(fileType);
		}

		private void load(KeyStoreFileType fileType) {
			KeyStore loaded;
			try {
				String path = this.location.toString();
				// Without a password, ZooKeeper's client opens the store with an empty
				// one
				String password = (this.password != null) ? this.password : "";
				loaded = this.trust ? X509Util.loadTrustStore(path, password, fileType.getPropertyValue())
						: X509Util.loadKeyStore(path, password, fileType.getPropertyValue());
				if (loaded.size() > 0) {
					return;
				}
			}
			catch (Exception ex) {
				if (hasCause(ex, UnrecoverableKeyException.class)) {
					throw invalid("password", (this.password != null) ? HIDDEN : null,
							"It does not open the " + description() + " " + this.location + ".", ex);
				}
				throw invalid("location", this.location, "It could not be read as a " + fileType + " " + description()
						+ " with the configured password: " + ex, ex);
			}
			throw invalid("location", this.location, "The " + description() + " holds no entry.", null);
		}

		@Override
		public String toString() {
			return "Store[name=" + this.name + ", location=" + this.location + ", type=" + this.type + "]";
		}

		private String description() {
			return this.name.replace('-', ' ');
		}

		private InvalidConfigurationPropertyValueException invalid(String property, @Nullable Object value,
				String reason, @Nullable Throwable cause) {
			return new InvalidConfigurationPropertyValueException(PREFIX + this.name + "-" + property, value, reason,
					cause);
		}

		private static boolean hasCause(Throwable ex, Class<? extends Throwable> type) {
			for (Throwable candidate = ex; candidate != null; candidate = candidate.getCause()) {
				if (type.isInstance(candidate)) {
					return true;
				}
			}
			return false;
		}

	}

}
