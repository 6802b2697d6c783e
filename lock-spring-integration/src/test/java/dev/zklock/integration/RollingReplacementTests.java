package dev.zklock.integration;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.Lock;

import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.integration.zookeeper.lock.ZookeeperLockRegistry;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * While instances of a service move from Spring Integration's
 * {@link ZookeeperLockRegistry} to this module's registry, both under the same root path,
 * an old and a new instance exclude each other, and each waits in the other's queue.
 */
class RollingReplacementTests {

	private static final String ROOT = "/SpringIntegration-LockRegistry";

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private ZooKeeperLockRegistry zklock;

	private ZooKeeperIntegrationLockRegistry newInstance;

	private ZookeeperLockRegistry oldInstance;

	@BeforeEach
	void connect() throws Exception {
		this.zklock = new ZooKeeperLockRegistry(zookeeper.newClient(), ROOT);
		this.newInstance = new ZooKeeperIntegrationLockRegistry(this.zklock);
		this.oldInstance = new ZookeeperLockRegistry(zookeeper.newClient(), ROOT);
	}

	@AfterEach
	void close() {
		this.oldInstance.destroy();
		this.zklock.close();
	}

	@Test
	void anOldInstanceWaitsForTheNewOnesLock() {
		assertWaitsForTheHolder(this.oldInstance, this.newInstance);
	}

	@Test
	void aNewInstanceWaitsForTheOldOnesLock() {
		assertWaitsForTheHolder(this.newInstance, this.oldInstance);
	}

	private void assertWaitsForTheHolder(LockRegistry<?> waiter, LockRegistry<?> holder) {
		Lock held = holder.obtain("rollout");
		held.lock();
		assertThat(waiter.obtain("rollout").tryLock()).isFalse();
		CompletableFuture<Boolean> waiting = tryLockOnItsOwnThread(waiter.obtain("rollout"));
		await().until(() -> this.zklock.queueOf("rollout").size() == 2);
		held.unlock();
		assertThat(waiting).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
	}

	private static CompletableFuture<Boolean> tryLockOnItsOwnThread(Lock lock) {
		return CompletableFuture.supplyAsync(() -> {
			try {
				boolean acquired = lock.tryLock(10, TimeUnit.SECONDS);
				if (acquired) {
					lock.unlock();
				}
				return acquired;
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				throw new IllegalStateException(ex);
			}
		});
	}

}
