package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockTimeoutException;
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
		String copy = plantCopyOfTheWaitingNode(client, copying, "copied");
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
			catch (LockTimeoutException ex) {
				return false;
			}
		});
		String copy = plantCopyOfTheWaitingNode(client, copying, "given-up");
		assertThat(waiter.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)).isFalse();
		await().until(() -> client.checkExists().forPath(copy) == null);
		first.release();
		List<QueuedLockNode> queue = other.queueOf("given-up");
		assertThat(queue).isEmpty();
		AcquiredLock again = other.acquire("given-up", Duration.ofSeconds(10));
		again.release();
	}

	/**
	 * Waits until the registry's node waits behind the holder's, then creates a copy of
	 * it in the registry's session, as a create sent twice would have: with its
	 * protection id, behind it in the queue.
	 * @return the copy's path
	 */
	private static String plantCopyOfTheWaitingNode(CuratorFramework client, ZooKeeperLockRegistry registry, String key)
			throws Exception {
		await().until(() -> registry.queueOf(key).size() == 2);
		String id = ProtectedUtils.extractProtectedId(registry.queueOf(key).get(1).node()).orElseThrow();
		return client.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath("/locks/" + key + "/" + ProtectedUtils.getProtectedPrefix(id) + "lock-");
	}

	private static ZooKeeperLockRegistry registry(CuratorFramework client) {
		return new ZooKeeperLockRegistry(client, "/locks", LostLockPolicy.defaults(), HandOffPolicy.defaults());
	}

}
