package dev.zklock.autoconfigure.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import dev.zklock.LockTemplate;
import dev.zklock.LockTimeoutException;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.QueuedLockNode;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.apache.zookeeper.data.ACL;
import org.apache.zookeeper.data.Id;
import org.apache.zookeeper.server.auth.DigestAuthenticationProvider;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Digest authentication and creator-only ACLs against a real ZooKeeper server.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZooKeeperDigestAuthenticationTests {

	private static final String PASSWORD = "digest-secret-7f3a";

	@RegisterExtension
	static final ZooKeeperTestServer server = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class));

	private ApplicationContextRunner authenticated(String rootPath, String username, String password) {
		return this.contextRunner.withPropertyValues(
				"distributed-lock.zookeeper.connect-string=" + server.connectString(),
				"distributed-lock.root-path=" + rootPath,
				"distributed-lock.zookeeper.authentication.username=" + username,
				"distributed-lock.zookeeper.authentication.password=" + password,
				"distributed-lock.startup.connection-wait=" + LockApplications.CONNECTION_WAIT);
	}

	@Test
	void peersSharingTheCredentialsTakeTheSameLockOneAfterTheOther() throws Exception {
		ExecutorService executor = Executors.newSingleThreadExecutor();
		try {
			authenticated("/shared", "locks", PASSWORD)
				.run((first) -> authenticated("/shared", "locks", PASSWORD).run((second) -> {
					LockTemplate firstLocks = first.getBean(LockTemplate.class);
					LockTemplate secondLocks = second.getBean(LockTemplate.class);
					CountDownLatch held = new CountDownLatch(1);
					CountDownLatch release = new CountDownLatch(1);
					Future<Long> holder = executor
						.submit(() -> firstLocks.execute("order:42", Duration.ofSeconds(10), (lock) -> {
							held.countDown();
							release.await(20, TimeUnit.SECONDS);
							return lock.fencingToken();
						}));
					assertThat(held.await(20, TimeUnit.SECONDS)).isTrue();
					assertThatExceptionOfType(LockTimeoutException.class)
						.isThrownBy(() -> secondLocks.execute("order:42", Duration.ofMillis(300), (lock) -> null));
					release.countDown();
					long firstToken = holder.get(20, TimeUnit.SECONDS);
					long secondToken = secondLocks.execute("order:42", Duration.ofSeconds(10),
							(lock) -> lock.fencingToken());
					assertThat(secondToken).isGreaterThan(firstToken);
				}));
		}
		finally {
			executor.shutdownNow();
		}
	}

	@Test
	void theNodesTheClientCreatesBelongToItsCredentialsOnly() {
		authenticated("/owned", "locks", PASSWORD).run((context) -> {
			CuratorFramework client = context.getBean(CuratorFramework.class);
			context.getBean(LockTemplate.class).execute("report", Duration.ofSeconds(10), (lock) -> {
				String id = DigestAuthenticationProvider.generateDigest("locks:" + PASSWORD);
				List<ACL> expected = List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", id)));
				assertThat(client.getACL().forPath("/owned")).isEqualTo(expected);
				assertThat(client.getACL().forPath("/owned/report")).isEqualTo(expected);
				String lockNode = client.getChildren().forPath("/owned/report").get(0);
				assertThat(client.getACL().forPath("/owned/report/" + lockNode)).isEqualTo(expected);
				return null;
			});
		});
	}

	@Test
	void furtherSessionsLockUnderTheGuardedRootWithTheCredentials() {
		authenticated("/sessions", "locks", PASSWORD).withPropertyValues("distributed-lock.zookeeper.sessions=2")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
				String id = DigestAuthenticationProvider.generateDigest("locks:" + PASSWORD);
				List<ACL> expected = List.of(new ACL(ZooDefs.Perms.ALL, new Id("digest", id)));
				Set<String> sessions = new HashSet<>();
				for (int i = 0; i < 10; i++) {
					String key = "invoice:" + i;
					AcquiredLock lock = registry.acquire(key, Duration.ofSeconds(10));
					QueuedLockNode node = registry.queueOf(key).get(0);
					sessions.add(node.sessionId());
					assertThat(client.getACL().forPath(registry.pathOf(key) + "/" + node.node())).isEqualTo(expected);
					lock.release();
				}
				assertThat(sessions).hasSize(2);
			});
	}

	@Test
	void anUnauthenticatedClientCannotReadCreateOrDeleteLockNodes() throws Exception {
		CuratorFramework anonymous = server.newClient();
		assertDenied(anonymous, "/guarded");
	}

	@Test
	void aClientWithOtherCredentialsCannotReadCreateOrDeleteLockNodes() throws Exception {
		try (CuratorFramework other = CuratorFrameworkFactory.builder()
			.connectString(server.connectString())
			.retryPolicy(new RetryOneTime(100))
			.authorization("digest", ("locks:not-" + PASSWORD).getBytes(StandardCharsets.UTF_8))
			.build()) {
			other.start();
			other.blockUntilConnected();
			assertDenied(other, "/guarded-other");
		}
	}

	private void assertDenied(CuratorFramework intruder, String rootPath) {
		authenticated(rootPath, "locks", PASSWORD)
			.run((context) -> context.getBean(LockTemplate.class).execute("invoice", Duration.ofSeconds(10), (lock) -> {
				String key = rootPath + "/invoice";
				String lockNode = key + "/" + context.getBean(CuratorFramework.class).getChildren().forPath(key).get(0);
				assertThatExceptionOfType(KeeperException.NoAuthException.class)
					.isThrownBy(() -> intruder.getChildren().forPath(key));
				assertThatExceptionOfType(KeeperException.NoAuthException.class)
					.isThrownBy(() -> intruder.getData().forPath(lockNode));
				assertThatExceptionOfType(KeeperException.NoAuthException.class).isThrownBy(
						() -> intruder.create().withMode(CreateMode.EPHEMERAL_SEQUENTIAL).forPath(key + "/lock-"));
				assertThatExceptionOfType(KeeperException.NoAuthException.class)
					.isThrownBy(() -> intruder.delete().forPath(lockNode));
				assertThatExceptionOfType(KeeperException.NoAuthException.class)
					.isThrownBy(() -> intruder.create().forPath(rootPath + "/another-key"));
				assertThat(lock.isValid()).isTrue();
				return null;
			}));
	}

	@Test
	void credentialsAppearNeitherInLogsNorInTheBeans(CapturedOutput output) {
		Logger zooKeeper = (Logger) LoggerFactory.getLogger("org.apache.zookeeper");
		Logger curator = (Logger) LoggerFactory.getLogger("org.apache.curator");
		Level zooKeeperLevel = zooKeeper.getLevel();
		Level curatorLevel = curator.getLevel();
		zooKeeper.setLevel(Level.TRACE);
		curator.setLevel(Level.TRACE);
		try {
			authenticated("/logged", "locks", PASSWORD).run((context) -> {
				context.getBean(LockTemplate.class).execute("audit", Duration.ofSeconds(10), (lock) -> null);
				assertThat(context.getBean(ZooKeeperProperties.class).toString()).doesNotContain(PASSWORD);
				assertThat(context.getBean(ZooKeeperProperties.class).getAuthentication().toString())
					.doesNotContain(PASSWORD);
				assertThat(context.getBean(DigestAuthenticationCustomizer.class).toString()).doesNotContain(PASSWORD);
			});
		}
		finally {
			zooKeeper.setLevel(zooKeeperLevel);
			curator.setLevel(curatorLevel);
		}
		assertThat(output).contains("locks").doesNotContain(PASSWORD);
	}

	@Test
	void digestCredentialsWithoutTlsLogAWarning(CapturedOutput output) {
		authenticated("/warned", "locks", PASSWORD).run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("ZooKeeper digest credentials travel in plain text")
			.contains("distributed-lock.zookeeper.ssl.enabled=true");
	}

	@Test
	void withoutCredentialsNodesStayOpenAndNothingIsLogged(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.connect-string=" + server.connectString(),
					"distributed-lock.root-path=/open")
			.run((context) -> context.getBean(LockTemplate.class).execute("open", Duration.ofSeconds(10), (lock) -> {
				assertThat(context.getBean(CuratorFramework.class).getACL().forPath("/open/open"))
					.isEqualTo(ZooDefs.Ids.OPEN_ACL_UNSAFE);
				return null;
			}));
		assertThat(output).doesNotContain("plain text");
	}

}
