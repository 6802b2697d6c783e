package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.Random;

import dev.zklock.LockTemplate;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Generated hostile keys locked for real: each one is a single node directly under the
 * root path, and none reaches outside it.
 */
class GeneratedKeysTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@Test
	void everyGeneratedKeyLocksOneNodeDirectlyUnderTheRoot() throws Exception {
		CuratorFramework client = zookeeper.newClient();
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/locks");
		LockTemplate template = new LockTemplate(registry, Duration.ofSeconds(5));
		Random random = new Random(11);
		for (int i = 0; i < 300; i++) {
			String key = LockRootNamesTests.hostileKey(random);
			if (key.isBlank()) {
				assertThatIllegalArgumentException().isThrownBy(() -> template.execute(key, (lock) -> "never"));
				continue;
			}
			String node = template.execute(key, (lock) -> {
				String name = LockRoot.nodeName(key);
				assertThat(client.getChildren().forPath("/locks")).contains(name);
				assertThat(client.getChildren().forPath("/locks/" + name)).hasSize(1);
				return name;
			});
			assertThat(registry.pathOf(key)).isEqualTo("/locks/" + node);
		}
		assertThat(client.getChildren().forPath("/")).isSubsetOf("locks", "zookeeper");
		assertThat(registry.keysInUse()).isZero();
	}

	@Test
	void nullAndBlankKeysAreRejectedBeforeAnythingIsLocked() throws Exception {
		CuratorFramework client = zookeeper.newClient();
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/empty");
		LockTemplate template = new LockTemplate(registry, Duration.ofSeconds(5));
		for (String key : new String[] { null, "", " ", "\t\n" }) {
			assertThatIllegalArgumentException().isThrownBy(() -> template.execute(key, (lock) -> "never"))
				.withMessage("Lock key must not be null or blank");
		}
		assertThatIllegalArgumentException().isThrownBy(() -> registry.acquire("", Duration.ZERO))
			.withMessage("Lock key must not be null or blank");
		assertThat(client.checkExists().forPath("/empty")).isNull();
		assertThat(registry.keysInUse()).isZero();
	}

}
