package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.ProtectedUtils;
import org.apache.zookeeper.CreateMode;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A create sent again after a connection loss can leave a second lock node in the queue,
 * with the protection id of the node the acquisition knows, ephemeral in a session that
 * lives on. Such a copy is planted here through the acquiring client itself, in its
 * session, as ZooKeeper would have made it; the queue must not stay blocked by it.
 */
class LockNodeCopiesTests {

	private static final Duration LONG_WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stop() {
		this.threads.shutdownNow();
	}

	@Test
	void aCopyOfAWaitingNodeIsDeletedWhenTheQueueIsReadAgainAndBlocksNobody() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry copying = registry(client);
		ZooKeeperLockRegistry other = registry(this.zookeeper.newClient());
		AcquiredLock first = other.acquire("copied", LONG_WAIT);
		Future<Long> waiter = this.threads.submit(() -> {
			AcquiredLock lock = copying.acquire("copied", LONG_WAIT);
			long token = lock.fencingToken();
			lock.release();
			return token;
		});
		await().until(() -> copying.queueOf("copied").size() == 2);
		String waiting = copying.queueOf("copied").get(1).node();
		String id = ProtectedUtils.extractProtectedId(waiting).orElseThrow();
		String copy = client.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath("/locks/copied/" + ProtectedUtils.getProtectedPrefix(id) + "lock-");
		assertThat(client.getChildren().forPath("/locks/copied")).hasSize(3);
		first.release();
		assertThat(waiter.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)).isGreaterThan(first.fencingToken());
		await().until(() -> client.checkExists().forPath(copy) == null);
		AcquiredLock again = other.acquire("copied", Duration.ofSeconds(10));
		assertThat(again.isValid()).isTrue();
		again.release();
	}

	@Test
	void theCopiesOfANodeWhoseTurnDidNotComeAreDeletedWithIt() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry copying = registry(client);
		ZooKeeperLockRegistry other = registry(this.zookeeper.newClient());
		AcquiredLock first = other.acquire("given-up", LONG_WAIT);
		Future<Boolean> waiter = this.threads.submit(() -> {
			try {
				copying.acquire("given-up", Duration.ofSeconds(3)).release();
				return true;
			}
			catch (dev.zklock.LockTimeoutException ex) {
				return false;
			}
		});
		await().until(() -> copying.queueOf("given-up").size() == 2);
		String id = ProtectedUtils.extractProtectedId(copying.queueOf("given-up").get(1).node()).orElseThrow();
		String copy = client.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath("/locks/given-up/" + ProtectedUtils.getProtectedPrefix(id) + "lock-");
		assertThat(waiter.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)).isFalse();
		await().until(() -> client.checkExists().forPath(copy) == null);
		first.release();
		List<QueuedLockNode> queue = other.queueOf("given-up");
		assertThat(queue).isEmpty();
		AcquiredLock again = other.acquire("given-up", Duration.ofSeconds(10));
		again.release();
	}

	private static ZooKeeperLockRegistry registry(CuratorFramework client) {
		return new ZooKeeperLockRegistry(client, "/locks", LostLockPolicy.defaults(), HandOffPolicy.defaults());
	}

}
