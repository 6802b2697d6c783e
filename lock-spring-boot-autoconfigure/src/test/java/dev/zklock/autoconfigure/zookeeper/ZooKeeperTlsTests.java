package dev.zklock.autoconfigure.zookeeper;

import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.time.Duration;
import java.util.Base64;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.TimeUnit;

import dev.zklock.ClusteredJob;
import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.scheduling.ClusteredJobAutoConfiguration;
import dev.zklock.scheduling.JobRecords;
import dev.zklock.testsupport.SecureZooKeeperServer;
import dev.zklock.testsupport.TestCertificates;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.ssl.SslAutoConfiguration;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * TLS to a real ZooKeeper server whose only client port is a secure one, with
 * certificates made for the test.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZooKeeperTlsTests {

	@RegisterExtension
	static final ZooKeeperTestServer plainServer = new ZooKeeperTestServer();

	@TempDir
	static Path directory;

	static TestCertificates certificates;

	static SecureZooKeeperServer secureServer;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class,
				DistributedLockAutoConfiguration.class, SslAutoConfiguration.class));

	@BeforeAll
	static void startSecureServer() throws Exception {
		certificates = TestCertificates.create(directory);
		secureServer = SecureZooKeeperServer.start(certificates, directory);
	}

	@AfterAll
	static void stopSecureServer() throws Exception {
		if (secureServer != null) {
			secureServer.close();
		}
	}

	private ApplicationContextRunner tls() {
		return this.contextRunner.withPropertyValues(
				"distributed-lock.zookeeper.connect-string=" + secureServer.connectString(),
				"distributed-lock.zookeeper.ssl.enabled=true",
				"distributed-lock.zookeeper.ssl.key-store-location=" + certificates.clientKeyStore(),
				"distributed-lock.zookeeper.ssl.key-store-password=" + TestCertificates.KEY_STORE_PASSWORD,
				"distributed-lock.zookeeper.ssl.trust-store-location=" + certificates.trustStore(),
				"distributed-lock.zookeeper.ssl.trust-store-password=" + TestCertificates.TRUST_STORE_PASSWORD);
	}

	@Test
	void aTlsClientLocksAndUnlocks() {
		tls().run((context) -> {
			assertThat(context).hasNotFailed();
			LockTemplate locks = context.getBean(LockTemplate.class);
			long first = locks.execute("tls", Duration.ofSeconds(15), (lock) -> lock.fencingToken());
			long second = locks.execute("tls", Duration.ZERO, (lock) -> lock.fencingToken());
			assertThat(second).isGreaterThan(first).isPositive();
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThat(
					client.getZookeeperClient().getZooKeeper().getClientConfig().getBoolean("zookeeper.client.secure"))
				.isTrue();
			assertThat(client.checkExists().forPath("/locks/tls")).satisfiesAnyOf((stat) -> assertThat(stat).isNull(),
					(stat) -> assertThat(stat.getNumChildren()).isZero());
		});
	}

	@Test
	void furtherSessionsConnectOverTlsToo() {
		tls().withPropertyValues("distributed-lock.root-path=/tls-sessions", "distributed-lock.zookeeper.sessions=2")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
				Set<String> sessions = new HashSet<>();
				for (int i = 0; i < 10; i++) {
					String key = "tls:" + i;
					AcquiredLock lock = registry.acquire(key, Duration.ofSeconds(15));
					sessions.add(registry.queueOf(key).get(0).sessionId());
					lock.release();
				}
				assertThat(sessions).hasSize(2);
				assertThat(context.getBean(LockSessionClients.class).clients()).singleElement()
					.satisfies((client) -> assertThat(client.getZookeeperClient()
						.getZooKeeper()
						.getClientConfig()
						.getBoolean("zookeeper.client.secure")).isTrue());
			});
	}

	@Test
	void aClientWithAPemBundleLocksAndUnlocks() throws Exception {
		Path privateKey = writeClientPrivateKeyPem();
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.connect-string=" + secureServer.connectString(),
					"distributed-lock.zookeeper.ssl.bundle=zookeeper",
					"spring.ssl.bundle.pem.zookeeper.keystore.certificate=file:" + directory.resolve("client.crt"),
					"spring.ssl.bundle.pem.zookeeper.keystore.private-key=file:" + privateKey,
					"spring.ssl.bundle.pem.zookeeper.truststore.certificate=file:" + certificates.serverCertificate())
			.run(this::locksTwice);
	}

	@Test
	void aClientWithAJksBundleLocksAndUnlocks() {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.connect-string=" + secureServer.connectString(),
					"distributed-lock.zookeeper.ssl.bundle=zookeeper",
					"spring.ssl.bundle.jks.zookeeper.key.alias=client",
					"spring.ssl.bundle.jks.zookeeper.keystore.location=file:" + certificates.clientKeyStore(),
					"spring.ssl.bundle.jks.zookeeper.keystore.password=" + TestCertificates.KEY_STORE_PASSWORD,
					"spring.ssl.bundle.jks.zookeeper.keystore.type=PKCS12",
					"spring.ssl.bundle.jks.zookeeper.truststore.location=file:" + certificates.trustStore(),
					"spring.ssl.bundle.jks.zookeeper.truststore.password=" + TestCertificates.TRUST_STORE_PASSWORD,
					"spring.ssl.bundle.jks.zookeeper.truststore.type=PKCS12")
			.run(this::locksTwice);
	}

	@Test
	void aClientWhoseBundleHasNoKeyIsRefusedByAServerThatAuthenticatesClients() {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.connect-string=" + secureServer.connectString(),
					"distributed-lock.zookeeper.ssl.bundle=zookeeper",
					"spring.ssl.bundle.pem.zookeeper.truststore.certificate=file:" + certificates.serverCertificate())
			.run((context) -> assertThat(
					context.getBean(CuratorFramework.class).blockUntilConnected(4, TimeUnit.SECONDS))
				.isFalse());
	}

	private void locksTwice(AssertableApplicationContext context) throws Exception {
		assertThat(context).hasNotFailed();
		LockTemplate locks = context.getBean(LockTemplate.class);
		long first = locks.execute("tls-bundle", Duration.ofSeconds(15), (lock) -> lock.fencingToken());
		long second = locks.execute("tls-bundle", Duration.ZERO, (lock) -> lock.fencingToken());
		assertThat(second).isGreaterThan(first).isPositive();
		assertThat(context.getBean(CuratorFramework.class)
			.getZookeeperClient()
			.getZooKeeper()
			.getClientConfig()
			.getBoolean("zookeeper.client.secure")).isTrue();
	}

	/**
	 * The client's private key, unencrypted in PKCS#8 PEM, from its key store: keytool
	 * exports certificates only.
	 */
	private static Path writeClientPrivateKeyPem() throws Exception {
		KeyStore keyStore = KeyStore.getInstance(certificates.clientKeyStore().toFile(),
				TestCertificates.KEY_STORE_PASSWORD.toCharArray());
		byte[] encoded = keyStore.getKey("client", TestCertificates.KEY_STORE_PASSWORD.toCharArray()).getEncoded();
		String pem = "-----BEGIN PRIVATE KEY-----\n"
				+ Base64.getMimeEncoder(64, "\n".getBytes(StandardCharsets.US_ASCII)).encodeToString(encoded)
				+ "\n-----END PRIVATE KEY-----\n";
		return Files.writeString(directory.resolve("client.key"), pem);
	}

	@Test
	void tlsSettingsStayWithTheClientAndLeaveTheJvmAlone() throws Exception {
		tls().run((context) -> {
			context.getBean(LockTemplate.class).execute("side-by-side", Duration.ofSeconds(15), (lock) -> null);
			assertThat(System.getProperties().stringPropertyNames())
				.noneMatch((name) -> name.startsWith("zookeeper.ssl") || name.equals("zookeeper.client.secure")
						|| name.equals("zookeeper.clientCnxnSocket"));
			CuratorFramework plain = plainServer.newClient();
			assertThat(plain.checkExists().forPath("/")).isNotNull();
		});
	}

	@Test
	void aPlainTextClientIsRefusedByTheSecurePort() throws Exception {
		try (CuratorFramework plain = CuratorFrameworkFactory.builder()
			.connectString(secureServer.connectString())
			.connectionTimeoutMs(2_000)
			.sessionTimeoutMs(4_000)
			.retryPolicy(new RetryOneTime(100))
			.build()) {
			plain.start();
			assertThat(plain.blockUntilConnected(4, TimeUnit.SECONDS)).isFalse();
		}
	}

	@Test
	void aTlsClientThatDoesNotTrustTheServerIsRefused() {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.connect-string=" + secureServer.connectString(),
					"distributed-lock.zookeeper.ssl.enabled=true",
					"distributed-lock.zookeeper.ssl.key-store-location=" + certificates.clientKeyStore(),
					"distributed-lock.zookeeper.ssl.key-store-password=" + TestCertificates.KEY_STORE_PASSWORD)
			.run((context) -> assertThat(
					context.getBean(CuratorFramework.class).blockUntilConnected(4, TimeUnit.SECONDS))
				.isFalse());
	}

	@Test
	void digestCredentialsOverTlsLogNoWarning(CapturedOutput output) {
		tls()
			.withPropertyValues("distributed-lock.root-path=/tls-digest-locks",
					"distributed-lock.zookeeper.authentication.username=locks",
					"distributed-lock.zookeeper.authentication.password=over-tls-secret")
			.run((context) -> {
				long token = context.getBean(LockTemplate.class)
					.execute("tls-digest", Duration.ofSeconds(15), (lock) -> lock.fencingToken());
				assertThat(token).isPositive();
			});
		assertThat(output).doesNotContain("plain text").doesNotContain("over-tls-secret");
	}

	@Test
	void digestAndTlsClientGuardsTheJobRecordsRootWithBothItsIdentities() {
		tls().withConfiguration(AutoConfigurations.of(ClusteredJobAutoConfiguration.class))
			.withUserConfiguration(HourlyJob.class)
			.withPropertyValues("distributed-lock.scheduling.root-path=/tls-jobs",
					"distributed-lock.root-path=/tls-jobs-locks", "distributed-lock.startup.connection-wait=60s",
					"distributed-lock.zookeeper.authentication.username=jobs",
					"distributed-lock.zookeeper.authentication.password=over-tls-secret")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getChildren().forPath("/tls-jobs")).containsExactly("~guard");
				assertThat(client.getACL().forPath("/tls-jobs")).extracting((acl) -> acl.getId().getScheme())
					.containsExactlyInAnyOrder("digest", "x509");
				assertThat(context.getBean(JobRecords.class).read("hourly")).isNull();
			});
	}

	@EnableScheduling
	static class HourlyJob {

		@Scheduled(cron = "0 0 * * * *")
		@ClusteredJob(name = "hourly")
		void report() {
		}

	}

}
