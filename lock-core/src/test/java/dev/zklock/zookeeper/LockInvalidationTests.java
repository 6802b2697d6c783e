package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockType;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link AcquiredLock#whenInvalidated()} against a real server: it completes once, at the
 * first doubt or loss of the hold, under either trigger of the lost-lock policy, and
 * never for a hold that is released.
 */
class LockInvalidationTests {

	private static final Duration AWAIT = Duration.ofSeconds(15);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@Test
	void suspensionCompletesTheStageOnceEvenWhenTheHoldIsOnlyUncertainAndLaterLost() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/locks",
				new LostLockPolicy(LostLockPolicy.Trigger.LOST, Set.of()));
		AcquiredLock lock = registry.acquireDetached("feed", LockType.EXCLUSIVE, 1, Duration.ofSeconds(5));
		List<String> reasons = new CopyOnWriteArrayList<>();
		lock.whenInvalidated().thenAccept(reasons::add);
		this.zookeeper.stop();
		await().atMost(AWAIT).until(() -> !reasons.isEmpty());
		assertThat(reasons).singleElement().asString().contains("suspended");
		assertThat(lock.isLost()).as("lost, with the connection only suspended").isFalse();
		this.zookeeper.restart();
		client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
		await().atMost(AWAIT).until(lock::isLost);
		assertThat(reasons).as("reasons after the loss").hasSize(1);
		List<String> late = new CopyOnWriteArrayList<>();
		lock.whenInvalidated().thenAccept(late::add);
		assertThat(late).as("a dependent added after the completion").containsExactly(reasons.get(0));
		lock.release();
	}

	@Test
	void suspensionUnderTheDefaultPolicyCompletesTheStageWithTheLoss() throws Exception {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		AcquiredLock lock = registry.acquireDetached("ledger", LockType.EXCLUSIVE, 1, Duration.ofSeconds(5));
		this.zookeeper.stop();
		String reason = lock.whenInvalidated().toCompletableFuture().get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(reason).isEqualTo(lock.getLossReason()).contains("suspended");
	}

	@Test
	void aPauseOfTheProcessCompletesTheStage() throws Exception {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks",
				new LostLockPolicy(LostLockPolicy.Trigger.LOST, Set.of()));
		AcquiredLock lock = registry.acquire("paused", Duration.ofSeconds(5));
		try {
			registry.lossDetector().pauseDetected(3_000, ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS);
			assertThat(lock.whenInvalidated().toCompletableFuture().getNow("not completed")).contains("paused");
		}
		finally {
			lock.release();
		}
	}

	@Test
	void aReleasedHoldNeverCompletesTheStage() throws Exception {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		AcquiredLock lock = registry.acquireDetached("released", LockType.EXCLUSIVE, 1, Duration.ofSeconds(5));
		lock.release();
		AcquiredLock next = registry.acquireDetached("released", LockType.EXCLUSIVE, 1, Duration.ofSeconds(5));
		this.zookeeper.stop();
		next.whenInvalidated().toCompletableFuture().get(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
		assertThat(lock.whenInvalidated().toCompletableFuture().isDone()).isFalse();
	}

}
