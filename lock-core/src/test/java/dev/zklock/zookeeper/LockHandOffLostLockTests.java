package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockType;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A lock lost while held is not handed over to a waiting thread of the same process,
 * which queues a new node in ZooKeeper instead of waiting for the lost holder to leave,
 * and every holder that took a lock over learns of its loss.
 */
class LockHandOffLostLockTests extends AbstractLockHandOffTests {

	@Test
	void lockLostWhileHeldIsNotHandedOver() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 64, Duration.ofMinutes(1)));
		HeldByThread first = HeldByThread.start(this.threads, registry, "hot", LockType.EXCLUSIVE);
		Future<AcquiredLock> second = this.threads.submit(() -> registry.acquire("hot", LONG_WAIT));
		await().until(() -> registry.waitingLocks().size() == 1);
		this.client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
		await().atMost(Duration.ofSeconds(10)).until(() -> first.lock.isLost());
		AcquiredLock taken = second.get(10, TimeUnit.SECONDS);
		assertThat(taken.fencingToken()).isGreaterThan(first.lock.fencingToken());
		assertThat(taken.isValid()).isTrue();
		this.threads.submit(taken::release).get();
		first.release();
	}

	@Test
	void readLockLostWhileHeldTakesNoMoreReadersOfThisProcess() throws Exception {
		CuratorFramework client = this.zookeeper.newClient(10_000);
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 64, Duration.ofMinutes(1)), client);
		HeldByThread first = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		this.zookeeper.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> first.lock.isLost());
		this.zookeeper.restart();
		await().atMost(Duration.ofSeconds(10)).until(() -> client.getZookeeperClient().isConnected());
		Future<AcquiredLock> second = this.threads.submit(() -> registry.acquire("doc", LockType.READ, 1, LONG_WAIT));
		AcquiredLock taken = second.get(10, TimeUnit.SECONDS);
		assertThat(taken.fencingToken()).isGreaterThan(first.lock.fencingToken());
		assertThat(taken.isValid()).isTrue();
		this.threads.submit(taken::release).get();
		first.release();
	}

	@Test
	void everyHolderThatTookTheLockOverLearnsOfItsLoss() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 64, Duration.ofMinutes(1)));
		HeldByThread first = HeldByThread.start(this.threads, registry, "hot", LockType.EXCLUSIVE);
		HeldByThread second = HeldByThread.startWaiting(this.threads, registry, "hot", LockType.EXCLUSIVE);
		await().until(() -> registry.waitingLocks().size() == 1);
		first.release();
		second.awaitHeld();
		assertThat(second.lock.fencingToken()).isGreaterThan(first.lock.fencingToken());
		assertThat(second.lock.isValid()).isTrue();
		this.zookeeper.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> second.lock.isLost());
		assertThat(first.lock.isLost()).isFalse();
		second.release();
	}

}
