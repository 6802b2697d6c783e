package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.LockType;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A holder whose lock was lost and that never leaves it keeps no thread of its process
 * waiting longer than a thread of another process: with hand-off on, the waiting threads
 * of the holder's process queue new nodes in ZooKeeper, and mutual exclusion holds
 * between them and the threads of another process. This is Curator's
 * {@code testKilledSession} against a real server.
 */
class LostHolderCohortTests {

	private static final Duration WAIT = Duration.ofSeconds(20);

	private static final int ROUNDS = 5;

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	@Test
	void waitingThreadOfTheLostHoldersProcessTakesTheLockWithAGreaterTokenAlongsideAnotherProcess() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry holderProcess = new ZooKeeperLockRegistry(client, "/locks");
		ZooKeeperLockRegistry otherProcess = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		CountDownLatch neverLeaves = new CountDownLatch(1);
		try {
			AcquiredLock lost = holdUntil(holderProcess, neverLeaves);
			AtomicInteger inside = new AtomicInteger();
			Future<List<Long>> waiter = this.threads.submit(() -> takeTurns(holderProcess, inside));
			await().until(() -> holderProcess.waitingLocks().size() == 1);
			client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
			await().atMost(WAIT).until(lost::isLost);
			Future<List<Long>> other = this.threads.submit(() -> takeTurns(otherProcess, inside));
			List<Long> waiterTokens = waiter.get(WAIT.toSeconds() * 2, TimeUnit.SECONDS);
			other.get(WAIT.toSeconds() * 2, TimeUnit.SECONDS);
			assertThat(waiterTokens).hasSize(ROUNDS)
				.allSatisfy((token) -> assertThat(token).isGreaterThan(lost.fencingToken()));
			assertThat(lost.isValid()).isFalse();
		}
		finally {
			neverLeaves.countDown();
			holderProcess.close();
			otherProcess.close();
		}
	}

	/**
	 * Starts a thread that acquires the key and holds it until the latch opens.
	 * @return the thread's acquisition, once held
	 */
	private AcquiredLock holdUntil(ZooKeeperLockRegistry registry, CountDownLatch leave) throws Exception {
		CompletableFuture<AcquiredLock> held = new CompletableFuture<>();
		this.threads.submit(() -> {
			AcquiredLock lock = registry.acquire("k", WAIT);
			held.complete(lock);
			leave.await();
			lock.release();
			return null;
		});
		return held.get(WAIT.toSeconds(), TimeUnit.SECONDS);
	}

	/**
	 * Acquires the key for some rounds, checking each time that no other thread of the
	 * test is inside.
	 * @return the fencing tokens of the rounds
	 */
	private static List<Long> takeTurns(ZooKeeperLockRegistry registry, AtomicInteger inside) {
		List<Long> tokens = new ArrayList<>();
		for (int round = 0; round < ROUNDS; round++) {
			AcquiredLock lock = registry.acquire("k", LockType.EXCLUSIVE, 1, WAIT);
			try {
				assertThat(inside.incrementAndGet()).as("holders inside at once").isEqualTo(1);
				tokens.add(lock.fencingToken());
				Thread.yield();
				assertThat(inside.decrementAndGet()).isZero();
			}
			finally {
				lock.release();
			}
		}
		return tokens;
	}

}
