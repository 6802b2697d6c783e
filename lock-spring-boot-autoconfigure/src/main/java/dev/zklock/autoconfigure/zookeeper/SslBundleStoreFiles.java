package dev.zklock.autoconfigure.zookeeper;

import java.io.IOException;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.nio.file.FileSystems;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.FileAttribute;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.Key;
import java.security.KeyStore;
import java.security.SecureRandom;
import java.security.cert.Certificate;
import java.util.ArrayList;
import java.util.Base64;
import java.util.Collections;
import java.util.List;

import org.apache.zookeeper.client.ZKClientConfig;
import org.apache.zookeeper.common.ClientX509Util;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.ssl.SslBundle;
import org.springframework.boot.ssl.SslBundleKey;
import org.springframework.boot.ssl.SslOptions;
import org.springframework.boot.ssl.SslStoreBundle;
import org.springframework.util.StringUtils;

/**
 * Writes the key material and trusted certificates of an SSL bundle to PKCS12 files that
 * only this process's user can read, for ZooKeeper's client. Its Netty transport builds
 * its TLS context from {@code zookeeper.ssl.keyStore.*} and
 * {@code zookeeper.ssl.trustStore.*} file locations alone: it ignores
 * {@code zookeeper.ssl.context.supplier.class}, which only ZooKeeper's other socket
 * transports read, and which names a class to instantiate with no way to hand it a
 * bundle. The files sit in a directory of their own, readable by the owner alone where
 * the file system has POSIX permissions, and are encrypted with a random password that
 * stays in the client's configuration in memory. The client reads them whenever it makes
 * a new session, so they live until {@link #close()}.
 */
final class SslBundleStoreFiles implements AutoCloseable {

	private static final String PROPERTY = "distributed-lock.zookeeper.ssl.bundle";

	private static final String TYPE = "PKCS12";

	private static final SecureRandom RANDOM = new SecureRandom();

	private final Path directory;

	private final String password;

	private final @Nullable Path keyStore;

	private final @Nullable Path trustStore;

	private final SslOptions options;

	private SslBundleStoreFiles(Path directory, String password, @Nullable Path keyStore, @Nullable Path trustStore,
			SslOptions options) {
		this.directory = directory;
		this.password = password;
		this.keyStore = keyStore;
		this.trustStore = trustStore;
		this.options = options;
	}

	/**
	 * Writes a bundle's stores.
	 * @param name the bundle's name, for messages
	 * @param bundle the bundle
	 * @return the written files
	 * @throws InvalidConfigurationPropertyValueException if the bundle's key cannot be
	 * read with its passwords, or its key alias names no key
	 */
	static SslBundleStoreFiles write(String name, SslBundle bundle) {
		SslStoreBundle stores = bundle.getStores();
		String password = randomPassword();
		KeyStore keys = (stores.getKeyStore() != null) ? keyStore(name, bundle, password.toCharArray()) : null;
		KeyStore trusted = (stores.getTrustStore() != null) ? trustStore(name, stores.getTrustStore()) : null;
		Path directory = null;
		try {
			directory = createDirectory();
			Path keyStore = (keys != null) ? store(keys, directory.resolve("key-store.p12"), password) : null;
			Path trustStore = (trusted != null) ? store(trusted, directory.resolve("trust-store.p12"), password) : null;
			return new SslBundleStoreFiles(directory, password, keyStore, trustStore, bundle.getOptions());
		}
		catch (IOException | GeneralSecurityException | RuntimeException ex) {
			if (directory != null) {
				delete(directory);
			}
			throw new IllegalStateException("The stores of SSL bundle '" + name + "' (" + PROPERTY
					+ ") could not be written for ZooKeeper's client to a temporary directory: " + ex, ex);
		}
	}

	/**
	 * Sets the client's key store, trust store, enabled protocols and cipher suites to
	 * the bundle's.
	 * @param config the client's configuration
	 */
	void applyTo(ZKClientConfig config) {
		try (ClientX509Util x509 = new ClientX509Util()) {
			if (this.keyStore != null) {
				config.setProperty(x509.getSslKeystoreLocationProperty(), this.keyStore.toString());
				config.setProperty(x509.getSslKeystorePasswdProperty(), this.password);
				config.setProperty(x509.getSslKeystoreTypeProperty(), TYPE);
			}
			if (this.trustStore != null) {
				config.setProperty(x509.getSslTruststoreLocationProperty(), this.trustStore.toString());
				config.setProperty(x509.getSslTruststorePasswdProperty(), this.password);
				config.setProperty(x509.getSslTruststoreTypeProperty(), TYPE);
			}
			String[] protocols = this.options.getEnabledProtocols();
			if (protocols != null) {
				config.setProperty(x509.getSslEnabledProtocolsProperty(),
						StringUtils.arrayToCommaDelimitedString(protocols));
			}
			String[] ciphers = this.options.getCiphers();
			if (ciphers != null) {
				config.setProperty(x509.getSslCipherSuitesProperty(), StringUtils.arrayToCommaDelimitedString(ciphers));
			}
		}
	}

	/**
	 * Deletes the files.
	 */
	@Override
	public void close() {
		delete(this.directory);
	}

	@Override
	public String toString() {
		return "SslBundleStoreFiles[directory=" + this.directory + "]";
	}

	/**
	 * A copy of the bundle's key store with the bundle's key entries (the one its key
	 * alias names, or all), opened with its key password, or its key store's when it has
	 * none, as Spring Boot's own key managers do, and protected by the given password,
	 * which ZooKeeper's client uses to open both the store and its keys.
	 */
	private static KeyStore keyStore(String name, SslBundle bundle, char[] password) {
		SslStoreBundle stores = bundle.getStores();
		KeyStore source = stores.getKeyStore();
		SslBundleKey key = bundle.getKey();
		String keyPassword = (key.getPassword() != null) ? key.getPassword() : stores.getKeyStorePassword();
		char[] keyPasswordChars = (keyPassword != null) ? keyPassword.toCharArray() : null;
		try {
			List<String> aliases = (key.getAlias() != null) ? List.of(key.getAlias())
					: Collections.list(source.aliases());
			KeyStore copy = emptyStore();
			for (String alias : aliases) {
				if (!source.isKeyEntry(alias)) {
					if (key.getAlias() != null) {
						throw invalid(name, "its key alias '" + alias + "' names no key entry in its key store", null);
					}
					continue;
				}
				Key entry = source.getKey(alias, keyPasswordChars);
				copy.setKeyEntry(alias, entry, password, source.getCertificateChain(alias));
			}
			if (copy.size() == 0) {
				throw invalid(name, "its key store holds no key entry", null);
			}
			return copy;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw invalid(name, "its key could not be read with its key password (or, without one, its key store "
					+ "password): " + ex, ex);
		}
	}

	/**
	 * A copy of the bundle's trust store whose entries are all trusted certificates:
	 * ZooKeeper's trust manager trusts certificate entries only, where the JDK's also
	 * trusts the certificate of each key entry.
	 */
	private static KeyStore trustStore(String name, KeyStore source) {
		try {
			KeyStore copy = emptyStore();
			for (String alias : Collections.list(source.aliases())) {
				Certificate certificate = source.getCertificate(alias);
				if (certificate != null) {
					copy.setCertificateEntry(alias, certificate);
				}
			}
			if (copy.size() == 0) {
				throw invalid(name, "its trust store holds no certificate", null);
			}
			return copy;
		}
		catch (GeneralSecurityException | IOException ex) {
			throw invalid(name, "its trust store could not be read: " + ex, ex);
		}
	}

	private static KeyStore emptyStore() throws GeneralSecurityException, IOException {
		KeyStore store = KeyStore.getInstance(TYPE);
		store.load(null, null);
		return store;
	}

	private static Path store(KeyStore store, Path file, String password) throws IOException, GeneralSecurityException {
		Files.createFile(file, ownerOnly("rw-------"));
		try (OutputStream out = Files.newOutputStream(file)) {
			store.store(out, password.toCharArray());
		}
		return file;
	}

	private static Path createDirectory() throws IOException {
		return Files.createTempDirectory("zklock-zookeeper-tls-", ownerOnly("rwx------"));
	}

	private static FileAttribute<?>[] ownerOnly(String permissions) {
		if (!FileSystems.getDefault().supportedFileAttributeViews().contains("posix")) {
			return new FileAttribute<?>[0];
		}
		return new FileAttribute<?>[] {
				PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString(permissions)) };
	}

	private static String randomPassword() {
		byte[] bytes = new byte[32];
		RANDOM.nextBytes(bytes);
		return Base64.getUrlEncoder().withoutPadding().encodeToString(bytes);
	}

	private static void delete(Path directory) {
		List<Path> files = new ArrayList<>();
		try (var entries = Files.list(directory)) {
			entries.forEach(files::add);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(
					"The TLS stores of ZooKeeper's client in " + directory + " could not be listed for deletion", ex);
		}
		try {
			for (Path file : files) {
				Files.deleteIfExists(file);
			}
			Files.deleteIfExists(directory);
		}
		catch (IOException ex) {
			throw new UncheckedIOException(
					"The TLS stores of ZooKeeper's client in " + directory + " could not be deleted", ex);
		}
	}

	private static InvalidConfigurationPropertyValueException invalid(String name, String reason,
			@Nullable Throwable cause) {
		return new InvalidConfigurationPropertyValueException(PROPERTY, name,
				"SSL bundle '" + name + "' cannot be handed to ZooKeeper's client: " + reason + ".", cause);
	}

}
