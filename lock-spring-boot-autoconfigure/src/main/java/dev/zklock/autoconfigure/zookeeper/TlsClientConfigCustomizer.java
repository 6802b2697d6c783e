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
import org.springframework.core.Ordered;

/**
 * Applies {@code distributed-lock.zookeeper.ssl.*}: hands the client a
 * {@link ZKClientConfig} of its own that connects through Netty over TLS with the
 * configured key store and trust store. Nothing is set JVM-wide, so other ZooKeeper
 * clients in the process keep their own settings. The stores are opened once at start-up,
 * so that a missing file, a wrong password or an unknown type fails start-up naming the
 * property instead of failing every connection attempt later. Runs before the
 * application's customizers.
 */
final class TlsClientConfigCustomizer implements CuratorFrameworkBuilderCustomizer, Ordered {

	private static final String PREFIX = "distributed-lock.zookeeper.ssl.";

	private static final String HIDDEN = "******";

	private final ZooKeeperProperties.Ssl.Store keyStore;

	private final ZooKeeperProperties.Ssl.Store trustStore;

	TlsClientConfigCustomizer(ZooKeeperProperties.Ssl ssl) {
		this.keyStore = ssl.getKeyStore();
		this.trustStore = ssl.getTrustStore();
		check(this.keyStore, "key-store", false);
		check(this.trustStore, "trust-store", true);
	}

	@Override
	public void customize(CuratorFrameworkFactory.Builder builder) {
		builder.zkClientConfig(clientConfig());
	}

	ZKClientConfig clientConfig() {
		ZKClientConfig config = new ZKClientConfig();
		config.setProperty(ZKClientConfig.SECURE_CLIENT, "true");
		config.setProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET, ClientCnxnSocketNetty.class.getName());
		try (ClientX509Util x509 = new ClientX509Util()) {
			set(config, this.keyStore, x509.getSslKeystoreLocationProperty(), x509.getSslKeystorePasswdProperty(),
					x509.getSslKeystoreTypeProperty());
			set(config, this.trustStore, x509.getSslTruststoreLocationProperty(), x509.getSslTruststorePasswdProperty(),
					x509.getSslTruststoreTypeProperty());
		}
		return config;
	}

	private static void set(ZKClientConfig config, ZooKeeperProperties.Ssl.Store store, String location,
			String password, String type) {
		if (store.getLocation() == null) {
			return;
		}
		config.setProperty(location, store.getLocation().toAbsolutePath().toString());
		if (store.getPassword() != null) {
			config.setProperty(password, store.getPassword());
		}
		if (store.getType() != null) {
			config.setProperty(type, store.getType());
		}
	}

	private static void check(ZooKeeperProperties.Ssl.Store store, String name, boolean trust) {
		Path location = store.getLocation();
		if (location == null) {
			if (store.getPassword() != null || store.getType() != null) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + name + ".location", null,
						"It must be set when the " + name.replace('-', ' ') + "'s password or type is set.");
			}
			return;
		}
		if (!Files.isRegularFile(location) || !Files.isReadable(location)) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + name + ".location", location,
					"It must be a readable file.");
		}
		KeyStoreFileType type;
		try {
			type = KeyStoreFileType.fromPropertyValueOrFileName(store.getType(), location.toString());
		}
		catch (IllegalArgumentException ex) {
			throw new InvalidConfigurationPropertyValueException(PREFIX + name + ".type", store.getType(),
					"It must be JKS, PKCS12, PEM or BCFKS; without it, the file name must end in .jks, .p12, "
							+ ".pfx, .pem or .bcfks.");
		}
		load(store, name, trust, location, type);
	}

	private static void load(ZooKeeperProperties.Ssl.Store store, String name, boolean trust, Path location,
			KeyStoreFileType type) {
		try {
			KeyStore loaded = trust
					? X509Util.loadTrustStore(location.toString(), store.getPassword(), type.getPropertyValue())
					: X509Util.loadKeyStore(location.toString(), store.getPassword(), type.getPropertyValue());
			if (loaded.size() == 0) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + name + ".location", location,
						"The " + name.replace('-', ' ') + " holds no entry.");
			}
		}
		catch (InvalidConfigurationPropertyValueException ex) {
			throw ex;
		}
		catch (Exception ex) {
			if (hasCause(ex, UnrecoverableKeyException.class)) {
				throw new InvalidConfigurationPropertyValueException(PREFIX + name + ".password", hidden(store),
						"It does not open the " + name.replace('-', ' ') + " " + location + ".", ex);
			}
			throw new InvalidConfigurationPropertyValueException(PREFIX + name + ".location", location,
					"It could not be read as a " + type + " " + name.replace('-', ' ') + " with the configured "
							+ "password: " + ex.getMessage(),
					ex);
		}
	}

	private static @Nullable String hidden(ZooKeeperProperties.Ssl.Store store) {
		return (store.getPassword() != null) ? HIDDEN : null;
	}

	private static boolean hasCause(Throwable ex, Class<? extends Throwable> type) {
		for (Throwable candidate = ex; candidate != null; candidate = candidate.getCause()) {
			if (type.isInstance(candidate)) {
				return true;
			}
		}
		return false;
	}

	@Override
	public int getOrder() {
		return 0;
	}

}
