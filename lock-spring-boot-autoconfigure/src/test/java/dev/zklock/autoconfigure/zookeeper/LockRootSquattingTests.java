package dev.zklock.autoconfigure.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A client without the credentials (a stranger) tries to take the lock root of an
 * authenticated application over, against a real ZooKeeper server that reaps empty
 * containers every 200 ms: before start-up, while the application runs, and after its key
 * nodes were reaped.
 */
class LockRootSquattingTests {

	private static final String PASSWORD = "root-secret-41c9";

	@RegisterExtension
	static final ZooKeeperTestServer server = new ZooKeeperTestServer();

	private static CuratorFramework stranger;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class));

	@BeforeAll
	static void connectStranger() throws Exception {
		stranger = server.newClient();
	}

	private ApplicationContextRunner authenticated(String rootPath) {
		return this.contextRunner.withPropertyValues(
				"distributed-lock.zookeeper.connect-string=" + server.connectString(),
				"distributed-lock.root-path=" + rootPath, "distributed-lock.startup.connection-wait=60s",
				"distributed-lock.zookeeper.authentication.username=locks",
				"distributed-lock.zookeeper.authentication.password=" + PASSWORD);
	}

	@Test
	void rootThatAStrangerCreatedBeforeStartUpFailsStartUpNamingItsAcl() throws Exception {
		stranger.create().forPath("/squat", new byte[0]);
		authenticated("/squat").run((context) -> assertThat(context).getFailure()
			.hasMessageContaining("The lock root /squat has the ACL [world:anyone:cdrwa]")
			.hasMessageContaining("not the ACL [digest:locks:"));
	}

	@Test
	void rootThatAStrangerCreatedIsRefusedForLockingWhenStartUpDidNotCheckIt() throws Exception {
		stranger.create().forPath("/squat-later", new byte[0]);
		try (CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(server.connectString())
			.retryPolicy(new RetryOneTime(100))
			.authorization("digest", ("locks:" + PASSWORD).getBytes(StandardCharsets.UTF_8))
			.aclProvider(new CreatorAllAclProvider())
			.build()) {
			client.start();
			ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/squat-later");
			registry.guardRoot();
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> registry.acquire("item:1", Duration.ofSeconds(10)))
				.withMessageContaining("The lock root /squat-later has the ACL [world:anyone:cdrwa]");
			assertThat(stranger.getChildren().forPath("/squat-later")).doesNotContain("item:1");
			registry.close();
		}
	}

	@Test
	void strangerCanNeitherRemoveNorReadNorBlockTheRootOnceItsKeysAreReaped() throws Exception {
		authenticated("/secure-locks").run((context) -> {
			LockTemplate locks = context.getBean(LockTemplate.class);
			assertThat(locks.<String>execute("item:55", Duration.ofSeconds(5), (lock) -> "locked")).isEqualTo("locked");
			CuratorFramework application = context.getBean(CuratorFramework.class);
			await().until(() -> application.checkExists().forPath("/secure-locks/item:55") == null);
			assertThat(application.getChildren().forPath("/secure-locks")).as("the root after its keys were reaped")
				.containsExactly("~guard");
			assertThatExceptionOfType(KeeperException.NotEmptyException.class)
				.isThrownBy(() -> stranger.delete().forPath("/secure-locks"));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.delete().forPath("/secure-locks/~guard"));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.getChildren().forPath("/secure-locks"));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.create().withMode(CreateMode.CONTAINER).forPath("/secure-locks/item:56"));
			assertThatExceptionOfType(KeeperException.NoAuthException.class)
				.isThrownBy(() -> stranger.setACL().withACL(ZooDefs.Ids.OPEN_ACL_UNSAFE).forPath("/secure-locks"));
			assertThat(locks.<String>execute("item:56", Duration.ofSeconds(5), (lock) -> "locked")).isEqualTo("locked");
		});
	}

	@Test
	void lockNodeOfNoSessionAheadInTheQueueFailsTheAcquisitionAtOnceNamingIt() throws Exception {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.connect-string=" + server.connectString(),
					"distributed-lock.root-path=/open-locks")
			.run((context) -> {
				String fake = "/open-locks/item:57/_c_0f0f0f0f-0000-0000-0000-000000000000-lock-0000000000";
				stranger.create().creatingParentsIfNeeded().forPath(fake);
				long start = System.nanoTime();
				assertThatExceptionOfType(LockAcquisitionException.class)
					.isThrownBy(() -> context.getBean(LockTemplate.class)
						.execute("item:57", Duration.ofMinutes(1), (lock) -> "locked"))
					.withMessageContaining(fake)
					.withMessageContaining("not ephemeral");
				assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(30));
				stranger.delete().forPath(fake);
				assertThat(context.getBean(LockTemplate.class)
					.<String>execute("item:57", Duration.ofSeconds(5), (lock) -> "locked")).isEqualTo("locked");
			});
	}

}
