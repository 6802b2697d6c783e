package dev.zklock.autoconfigure.zookeeper;

import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermission;
import java.security.KeyStore;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.testsupport.TestCertificates;
import org.apache.curator.framework.AuthInfo;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.zookeeper.client.ZKClientConfig;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * How the security properties reach the Curator builder, and how bad ones fail start-up.
 */
class ZooKeeperSecurityConfigurationTests {

	private static final String WRONG_PASSWORD = "not-the-password-91c2";

	@TempDir
	static Path directory;

	static TestCertificates certificates;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class, SslAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2999")
		.withBean(BuilderCapture.class)
		.withBean("capturingCustomizer", CuratorFrameworkBuilderCustomizer.class,
				() -> (builder) -> BuilderCapture.builders.add(builder));

	@BeforeAll
	static void makeCertificates() throws Exception {
		certificates = TestCertificates.create(directory);
	}

	@Test
	void addsNoCredentialsAclOrTlsByDefault() {
		this.contextRunner.run((context) -> {
			CuratorFrameworkFactory.Builder builder = lastBuilder();
			assertThat(builder.getAuthInfos()).isNullOrEmpty();
			assertThat(builder.getAclProvider()).isNotInstanceOf(CreatorAllAclProvider.class);
			assertThat(builder.getZkClientConfig()).isNull();
			assertThat(context).doesNotHaveBean(TlsClientConfigCustomizer.class);
		});
	}

	@Test
	void digestCredentialsAndCreatorOnlyAclsReachTheBuilderBeforeTheApplicationsCustomizers() {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.authentication.username=locks",
					"distributed-lock.zookeeper.authentication.password=s3cret")
			.run((context) -> {
				CuratorFrameworkFactory.Builder builder = lastBuilder();
				assertThat(builder.getAuthInfos()).singleElement().satisfies((AuthInfo info) -> {
					assertThat(info.getScheme()).isEqualTo("digest");
					assertThat(new String(info.getAuth())).isEqualTo("locks:s3cret");
				});
				assertThat(builder.getAclProvider()).isInstanceOf(CreatorAllAclProvider.class);
			});
	}

	@Test
	void tlsSettingsReachTheBuilderAsAClientConfigOfItsOwn() {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.ssl.enabled=true",
					"distributed-lock.zookeeper.ssl.key-store-location=" + certificates.clientKeyStore(),
					"distributed-lock.zookeeper.ssl.key-store-password=" + TestCertificates.KEY_STORE_PASSWORD,
					"distributed-lock.zookeeper.ssl.trust-store-location=" + certificates.trustStore(),
					"distributed-lock.zookeeper.ssl.trust-store-password=" + TestCertificates.TRUST_STORE_PASSWORD,
					"distributed-lock.zookeeper.ssl.trust-store-type=PKCS12")
			.run((context) -> {
				ZKClientConfig config = lastBuilder().getZkClientConfig();
				assertThat(config.getBoolean(ZKClientConfig.SECURE_CLIENT)).isTrue();
				assertThat(config.getProperty(ZKClientConfig.ZOOKEEPER_CLIENT_CNXN_SOCKET))
					.isEqualTo("org.apache.zookeeper.ClientCnxnSocketNetty");
				assertThat(config.getProperty("zookeeper.ssl.keyStore.location"))
					.isEqualTo(certificates.clientKeyStore().toAbsolutePath().toString());
				assertThat(config.getProperty("zookeeper.ssl.trustStore.location"))
					.isEqualTo(certificates.trustStore().toAbsolutePath().toString());
				assertThat(config.getProperty("zookeeper.ssl.trustStore.type")).isEqualTo("PKCS12");
				assertThat(System.getProperty("zookeeper.client.secure")).isNull();
			});
	}

	@Test
	void aPemTrustStoreNeedsNoPassword() {
		ssl("trust-store-location=" + certificates.serverCertificate(), "trust-store-type=PEM").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(lastBuilder().getZkClientConfig().getProperty("zookeeper.ssl.trustStore.location"))
				.endsWith("server.crt");
		});
	}

	@Test
	void tlsPropertiesAreIgnoredUnlessEnabled() {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.ssl.trust-store-location=" + directory.resolve("missing"))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(TlsClientConfigCustomizer.class);
				assertThat(lastBuilder().getZkClientConfig()).isNull();
			});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '=',
			value = { "authentication.scheme=sasl", "authentication.username=us:er", "authentication.username=' '" })
	void badAuthenticationValuesFailStartUpNamingTheProperty(String property, String value) {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.authentication.password=s3cret",
					"distributed-lock.zookeeper.authentication.username=locks",
					"distributed-lock.zookeeper." + property + "=" + value)
			.run((context) -> assertThat(invalidProperty(context.getStartupFailure()))
				.hasMessageContaining("distributed-lock.zookeeper." + property)
				.hasMessageNotContaining("s3cret"));
	}

	@Test
	void aPasswordWithoutUserNameFailsStartUpNamingTheUserName() {
		this.contextRunner.withPropertyValues("distributed-lock.zookeeper.authentication.password=s3cret")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("distributed-lock.zookeeper.authentication.username")
				.hasMessageNotContaining("s3cret"));
	}

	@Test
	void aUserNameWithoutPasswordFailsStartUpNamingThePassword() {
		this.contextRunner.withPropertyValues("distributed-lock.zookeeper.authentication.username=locks")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("distributed-lock.zookeeper.authentication.password"));
	}

	@Test
	void aMissingTrustStoreFileFailsStartUpNamingTheLocation() {
		ssl("trust-store-location=" + directory.resolve("missing.p12"),
				"trust-store-password=" + TestCertificates.TRUST_STORE_PASSWORD)
			.run((context) -> assertThat(invalidProperty(context.getStartupFailure()))
				.hasMessageContaining("distributed-lock.zookeeper.ssl.trust-store-location")
				.hasMessageContaining("missing.p12"));
	}

	@Test
	void aWrongTrustStorePasswordFailsStartUpNamingThePasswordWithoutShowingIt() {
		ssl("trust-store-location=" + certificates.trustStore(), "trust-store-password=" + WRONG_PASSWORD)
			.run((context) -> assertThat(invalidProperty(context.getStartupFailure()))
				.hasMessageContaining("distributed-lock.zookeeper.ssl.trust-store-password")
				.hasMessageNotContaining(WRONG_PASSWORD));
	}

	@Test
	void aWrongKeyStorePasswordFailsStartUpNamingThePasswordWithoutShowingIt() {
		ssl("key-store-location=" + certificates.clientKeyStore(), "key-store-password=" + WRONG_PASSWORD)
			.run((context) -> {
				assertThat(invalidProperty(context.getStartupFailure()))
					.hasMessageContaining("distributed-lock.zookeeper.ssl.key-store-password")
					.hasMessageNotContaining(WRONG_PASSWORD);
				assertThat(stackTraceOf(context.getStartupFailure())).doesNotContain(WRONG_PASSWORD);
			});
	}

	@Test
	void anUnknownStoreTypeFailsStartUpNamingTheType() {
		ssl("trust-store-location=" + certificates.trustStore(),
				"trust-store-password=" + TestCertificates.TRUST_STORE_PASSWORD, "trust-store-type=CMS")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("distributed-lock.zookeeper.ssl.trust-store-type"));
	}

	@Test
	void aFileThatIsNoStoreFailsStartUpNamingTheLocation() throws Exception {
		Path notAStore = Files.writeString(directory.resolve("not-a-store.p12"), "plain text");
		ssl("trust-store-location=" + notAStore, "trust-store-password=" + TestCertificates.TRUST_STORE_PASSWORD)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("distributed-lock.zookeeper.ssl.trust-store-location"));
	}

	@Test
	void aStorePasswordWithoutLocationFailsStartUpNamingTheLocation() {
		ssl("key-store-password=" + TestCertificates.KEY_STORE_PASSWORD)
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("distributed-lock.zookeeper.ssl.key-store-location")
				.hasMessageNotContaining(TestCertificates.KEY_STORE_PASSWORD));
	}

	@Test
	void aBundleTurnsTlsOnAndReachesTheClientAsStoreFilesOnlyTheOwnerReadsUntilShutDown() {
		AtomicReference<Path> keyStore = new AtomicReference<>();
		AtomicReference<Path> trustStore = new AtomicReference<>();
		jksBundle().withPropertyValues("distributed-lock.zookeeper.ssl.bundle=zookeeper").run((context) -> {
			assertThat(context).hasNotFailed().hasSingleBean(TlsClientConfigCustomizer.class);
			ZKClientConfig config = lastBuilder().getZkClientConfig();
			assertThat(config.getBoolean(ZKClientConfig.SECURE_CLIENT)).isTrue();
			assertThat(config.getProperty("zookeeper.ssl.keyStore.type")).isEqualTo("PKCS12");
			assertThat(config.getProperty("zookeeper.ssl.trustStore.type")).isEqualTo("PKCS12");
			keyStore.set(Path.of(config.getProperty("zookeeper.ssl.keyStore.location")));
			trustStore.set(Path.of(config.getProperty("zookeeper.ssl.trustStore.location")));
			for (Path store : List.of(keyStore.get(), trustStore.get())) {
				assertThat(store).isRegularFile();
				assertThat(Files.getPosixFilePermissions(store))
					.containsExactlyInAnyOrder(PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE);
				assertThat(Files.getPosixFilePermissions(store.getParent())).containsExactlyInAnyOrder(
						PosixFilePermission.OWNER_READ, PosixFilePermission.OWNER_WRITE,
						PosixFilePermission.OWNER_EXECUTE);
			}
			assertThat(KeyStore
				.getInstance(keyStore.get().toFile(),
						config.getProperty("zookeeper.ssl.keyStore.password").toCharArray())
				.isKeyEntry("client")).isTrue();
		});
		assertThat(keyStore.get()).doesNotExist();
		assertThat(trustStore.get()).doesNotExist();
		assertThat(keyStore.get().getParent()).doesNotExist();
	}

	@Test
	void aBundlesProtocolsAndCiphersReachTheClient() {
		jksBundle()
			.withPropertyValues("distributed-lock.zookeeper.ssl.bundle=zookeeper",
					"spring.ssl.bundle.jks.zookeeper.options.enabled-protocols=TLSv1.3",
					"spring.ssl.bundle.jks.zookeeper.options.ciphers=TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384")
			.run((context) -> {
				ZKClientConfig config = lastBuilder().getZkClientConfig();
				assertThat(config.getProperty("zookeeper.ssl.enabledProtocols")).isEqualTo("TLSv1.3");
				assertThat(config.getProperty("zookeeper.ssl.ciphersuites"))
					.isEqualTo("TLS_AES_128_GCM_SHA256,TLS_AES_256_GCM_SHA384");
			});
	}

	@Test
	void tlsStaysOffBesideABundleWhenDisabled() {
		jksBundle()
			.withPropertyValues("distributed-lock.zookeeper.ssl.bundle=zookeeper",
					"distributed-lock.zookeeper.ssl.enabled=false")
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(TlsClientConfigCustomizer.class);
				assertThat(lastBuilder().getZkClientConfig()).isNull();
			});
	}

	@Test
	void anUnknownBundleFailsStartUpNamingThePropertyAndTheBundle() {
		jksBundle().withPropertyValues("distributed-lock.zookeeper.ssl.bundle=zookeepr")
			.run((context) -> assertThat(invalidProperty(context.getStartupFailure()))
				.hasMessageContaining("distributed-lock.zookeeper.ssl.bundle")
				.hasMessageContaining("zookeepr")
				.hasMessageContaining("spring.ssl.bundle"));
	}

	@ParameterizedTest
	@CsvSource({ "key-store-location", "trust-store-location", "trust-store-password" })
	void aBundleBesideAStorePropertyFailsStartUpNamingBoth(String property) {
		jksBundle()
			.withPropertyValues("distributed-lock.zookeeper.ssl.bundle=zookeeper",
					"distributed-lock.zookeeper.ssl." + property + "=" + certificates.trustStore())
			.run((context) -> assertThat(invalidProperty(context.getStartupFailure()))
				.hasMessageContaining("distributed-lock.zookeeper.ssl." + property)
				.hasMessageContaining("distributed-lock.zookeeper.ssl.bundle"));
	}

	@Test
	void aBundleWithoutSpringBootsSslBundlesFailsStartUpNamingTheProperty() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class))
			.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2999",
					"distributed-lock.zookeeper.ssl.bundle=zookeeper")
			.run((context) -> assertThat(invalidProperty(context.getStartupFailure()))
				.hasMessageContaining("distributed-lock.zookeeper.ssl.bundle")
				.hasMessageContaining("SslAutoConfiguration"));
	}

	@Test
	void aBundleKeyAliasThatNamesNoKeyFailsStartUpNamingTheBundle() {
		jksBundle()
			.withPropertyValues("distributed-lock.zookeeper.ssl.bundle=zookeeper",
					"spring.ssl.bundle.jks.zookeeper.key.alias=server")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("zookeeper")
				.hasMessageContaining("server"));
	}

	private ApplicationContextRunner jksBundle() {
		return this.contextRunner.withPropertyValues(
				"spring.ssl.bundle.jks.zookeeper.keystore.location=file:" + certificates.clientKeyStore(),
				"spring.ssl.bundle.jks.zookeeper.keystore.password=" + TestCertificates.KEY_STORE_PASSWORD,
				"spring.ssl.bundle.jks.zookeeper.keystore.type=PKCS12",
				"spring.ssl.bundle.jks.zookeeper.truststore.location=file:" + certificates.trustStore(),
				"spring.ssl.bundle.jks.zookeeper.truststore.password=" + TestCertificates.TRUST_STORE_PASSWORD,
				"spring.ssl.bundle.jks.zookeeper.truststore.type=PKCS12");
	}

	private ApplicationContextRunner ssl(String... properties) {
		ApplicationContextRunner runner = this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.ssl.enabled=true");
		for (String property : properties) {
			runner = runner.withPropertyValues("distributed-lock.zookeeper.ssl." + property);
		}
		return runner;
	}

	private static CuratorFrameworkFactory.Builder lastBuilder() {
		return BuilderCapture.builders.get(BuilderCapture.builders.size() - 1);
	}

	private static InvalidConfigurationPropertyValueException invalidProperty(Throwable failure) {
		for (Throwable cause = failure; cause != null; cause = cause.getCause()) {
			if (cause instanceof InvalidConfigurationPropertyValueException invalid) {
				return invalid;
			}
		}
		throw new AssertionError("No InvalidConfigurationPropertyValueException in " + failure, failure);
	}

	private static String stackTraceOf(Throwable failure) {
		StringWriter writer = new StringWriter();
		failure.printStackTrace(new PrintWriter(writer));
		return writer.toString();
	}

	static class BuilderCapture {

		static final List<CuratorFrameworkFactory.Builder> builders = new ArrayList<>();

	}

}
