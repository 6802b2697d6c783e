package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.testsupport.ContainerNodes;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A thread that stops waiting for a lock held in its process, timed out or interrupted,
 * fails alone: it keeps its interrupt, and the lock still passes to the next waiter.
 */
class LockHandOffAbandonedWaitTests extends AbstractLockHandOffTests {

	@Test
	void waiterThatTimesOutOrIsInterruptedLeavesTheCohortWorking() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 64, Duration.ofMinutes(1)));
		HeldByThread first = HeldByThread.start(this.threads, registry, "hot", LockType.EXCLUSIVE);
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> registry.acquire("hot", Duration.ofMillis(200)));
		Future<AcquiredLock> interrupted = this.threads.submit(() -> registry.acquire("hot", LONG_WAIT));
		await().until(() -> registry.waitingLocks().size() == 1);
		interrupted.cancel(true);
		await().until(() -> registry.waitingLocks().isEmpty());
		HeldByThread next = HeldByThread.startWaiting(this.threads, registry, "hot", LockType.EXCLUSIVE);
		await().until(() -> registry.waitingLocks().size() == 1);
		first.release();
		next.awaitHeld();
		assertThat(next.lock.fencingToken()).isGreaterThan(first.lock.fencingToken());
		next.release();
		assertThat(registry.keysInUse()).isZero();
		assertThat(ContainerNodes.childrenOf(this.client, registry.pathOf("hot"))).isEmpty();
	}

	@Test
	void interruptedAcquisitionFailsAndKeepsTheInterrupt() throws Exception {
		ZooKeeperLockRegistry registry = registry(HandOffPolicy.defaults());
		HeldByThread first = HeldByThread.start(this.threads, registry, "hot", LockType.EXCLUSIVE);
		CompletableFuture<Boolean> interruptKept = new CompletableFuture<>();
		Thread waiter = new Thread(() -> {
			try {
				registry.acquire("hot", LONG_WAIT).release();
				interruptKept.complete(false);
			}
			catch (LockAcquisitionException ex) {
				interruptKept.complete(Thread.currentThread().isInterrupted());
			}
		});
		waiter.start();
		await().until(() -> registry.waitingLocks().size() == 1);
		waiter.interrupt();
		assertThat(interruptKept.get(10, TimeUnit.SECONDS)).isTrue();
		first.release();
	}

}
