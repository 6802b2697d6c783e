package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockLostException;
import dev.zklock.LockTemplate;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What a holder learns when ZooKeeper may have given its lock away, under each
 * {@link LostLockPolicy}, against a real server that stops, restarts, or ends a session.
 */
class LostLockTests {

	private static final Duration AWAIT = Duration.ofSeconds(15);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@Test
	void suspensionLosesTheLockAndTheCallerLearnsItWhenTheProtectedCodeReturns() throws Exception {
		LockTemplate template = template(this.zookeeper.newClient(), LostLockPolicy.defaults());
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> template.execute("payment", (lock) -> {
			assertThat(lock.isValid()).isTrue();
			this.zookeeper.stop();
			await().atMost(AWAIT).until(() -> !lock.isValid());
			return "paid";
		}))
			.withMessageContaining("'payment'")
			.withMessageContaining("suspended")
			.satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("payment"))
			.satisfies((ex) -> assertThat(ex.getFencingToken()).isPositive());
	}

	@Test
	void lossIsAddedToTheExceptionOfProtectedCodeThatFailed() throws Exception {
		LockTemplate template = template(this.zookeeper.newClient(), LostLockPolicy.defaults());
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> template.execute("refund", (lock) -> {
			this.zookeeper.stop();
			await().atMost(AWAIT).until(() -> !lock.isValid());
			throw new IllegalStateException("refund failed");
		}))
			.withMessage("refund failed")
			.satisfies((ex) -> assertThat(ex.getSuppressed()).singleElement().isInstanceOf(LockLostException.class));
	}

	@Test
	void withoutActionsOnlyIsValidTellsOfTheLoss() throws Exception {
		LockTemplate template = template(this.zookeeper.newClient(),
				new LostLockPolicy(LostLockPolicy.Trigger.SUSPENDED, Set.of()));
		String result = template.execute("report", (lock) -> {
			this.zookeeper.stop();
			await().atMost(AWAIT).until(() -> !lock.isValid());
			return "reported";
		});
		assertThat(result).isEqualTo("reported");
	}

	@Test
	void interruptActionInterruptsTheHolderAndTheInterruptEndsWithTheHold() throws Exception {
		LockTemplate template = template(this.zookeeper.newClient(), interruptingOnSuspension());
		long start = System.nanoTime();
		String result = template.execute("batch", (lock) -> {
			CompletableFuture.runAsync(this::stopServer);
			try {
				Thread.sleep(60_000);
				return "slept";
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return "interrupted";
			}
		});
		assertThat(result).isEqualTo("interrupted");
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(AWAIT);
	}

	/**
	 * A lock is declared lost once ({@code markLost}'s check of an earlier loss): a
	 * holder that took the policy's interrupt is not interrupted again by a later event
	 * that finds the lock lost, here a second pause under the suspension trigger.
	 */
	@Test
	void lockLostTwiceInterruptsItsHolderOnce() throws Exception {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks",
				interruptingOnSuspension());
		AcquiredLock lock = registry.acquire("once", Duration.ofSeconds(5));
		try {
			pauseDetected(registry);
			assertThat(Thread.interrupted()).as("interrupted by the loss").isTrue();
			pauseDetected(registry);
			assertThat(Thread.currentThread().isInterrupted()).as("interrupted again").isFalse();
			assertThat(lock.getLossReason()).contains("paused");
		}
		finally {
			Thread.interrupted();
			lock.release();
		}
	}

	/**
	 * The policy's interrupt ends when the holder releases its last acquisition later, as
	 * when it releases it now: the thread leaves the hold at once ({@code delayRelease}'s
	 * end of the interrupt once the thread left).
	 */
	@Test
	void interruptEndsWhenTheHoldersLastAcquisitionIsReleasedLater() throws Exception {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks",
				interruptingOnSuspension());
		AcquiredLock lock = registry.acquire("later", Duration.ofSeconds(5));
		try {
			pauseDetected(registry);
			assertThat(Thread.currentThread().isInterrupted()).as("interrupted by the loss").isTrue();
			lock.releaseAfter(Duration.ofSeconds(1));
			assertThat(Thread.currentThread().isInterrupted()).as("interrupted after the release").isFalse();
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void lossThatTheReleaseFindsFirstLeavesNoInterruptBehind() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/locks", interruptingOnSuspension());
		CountDownLatch connectionEventsGoOn = new CountDownLatch(1);
		holdUpConnectionEvents(client, connectionEventsGoOn);
		try {
			AcquiredLock lock = registry.acquire("news", Duration.ofSeconds(5));
			this.zookeeper.stop();
			await().atMost(AWAIT).until(() -> !client.getZookeeperClient().isConnected());
			lock.release();
			assertThat(Thread.interrupted()).isFalse();
			assertThat(lock.getLossReason()).contains("suspended");
		}
		finally {
			connectionEventsGoOn.countDown();
		}
	}

	@Test
	void releaseKeepsTheInterruptThatTheHolderHadBeforeThePolicyInterruptedIt() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/locks", interruptingOnSuspension());
		AcquiredLock lock = registry.acquire("digest", Duration.ofSeconds(5));
		try {
			Thread.currentThread().interrupt();
			// stopped on another thread, and waited for without a call that an interrupt
			// ends (and clears): the holder stays interrupted until the loss
			CompletableFuture<Void> stopped = CompletableFuture.runAsync(this::stopServer);
			long deadline = System.nanoTime() + AWAIT.toNanos();
			while (!(stopped.isDone() && lock.isLost()) && System.nanoTime() - deadline < 0) {
				Thread.onSpinWait();
			}
			assertThat(lock.isLost()).isTrue();
			assertThat(Thread.currentThread().isInterrupted()).as("the interrupt, before the release").isTrue();
			lock.release();
			assertThat(Thread.currentThread().isInterrupted()).as("the application's own interrupt").isTrue();
		}
		finally {
			Thread.interrupted();
		}
	}

	@Test
	void lossDeclaredBeforeAHoldBeginsDoesNotInterruptTheThreadStillAcquiringIt() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ScheduledExecutorService scheduler = Executors.newSingleThreadScheduledExecutor();
		try {
			LockLossDetector detector = new LockLossDetector(client, interruptingOnSuspension(), scheduler);
			LockNode node = new LockNode("/locks/arriving/_c_1-lock-0000000000", LockNodeKind.EXCLUSIVE, 1,
					client.getZookeeperClient().getZooKeeper().getSessionId());
			LockKey lockKey = new LockKey("arriving", HandOffPolicy.disabled());
			LockKey.Hold arriving = new LockKey.Hold(lockKey, node, 0, Thread.currentThread());
			detector.register(arriving);
			this.zookeeper.stop();
			await().atMost(AWAIT).until(() -> arriving.lossReason() != null);
			assertThat(detector.isHeld(arriving)).isFalse();
			assertThat(lockKey.begin(arriving, true, 0)).isFalse();
			assertThat(Thread.interrupted()).isFalse();
		}
		finally {
			scheduler.shutdownNow();
		}
	}

	@Test
	void threadWhoseHoldWasLostCannotEnterItAgain() throws Exception {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		AcquiredLock outer = registry.acquire("nested", Duration.ofSeconds(5));
		this.zookeeper.stop();
		await().atMost(AWAIT).until(outer::isLost);
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> registry.acquire("nested", Duration.ZERO))
			.withMessageContaining("re-enter lock 'nested'")
			.withMessageContaining("suspended");
		outer.release();
		assertThat(registry.keysInUse()).isZero();
	}

	@Test
	void lostTriggerForgivesASuspensionThatTheSessionSurvives() throws Exception {
		CuratorFramework client = this.zookeeper.newClient(10_000);
		long session = client.getZookeeperClient().getZooKeeper().getSessionId();
		LockTemplate template = template(client, new LostLockPolicy(LostLockPolicy.Trigger.LOST,
				EnumSet.of(LostLockPolicy.Action.RAISE, LostLockPolicy.Action.INTERRUPT)));
		String result = template.execute("ledger", (lock) -> {
			this.zookeeper.stop();
			await().atMost(AWAIT).until(() -> !lock.isValid());
			this.zookeeper.restart();
			await().atMost(AWAIT).until(lock::isValid);
			return "posted";
		});
		assertThat(result).isEqualTo("posted");
		assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).isEqualTo(session);
	}

	@Test
	void lostTriggerLosesTheLockForGoodWhenTheSessionEnds() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry other = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		LockTemplate template = template(client,
				new LostLockPolicy(LostLockPolicy.Trigger.LOST, EnumSet.of(LostLockPolicy.Action.RAISE)));
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> template.execute("stock", (lock) -> {
			long session = client.getZookeeperClient().getZooKeeper().getSessionId();
			client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
			await().atMost(AWAIT).until(() -> !lock.isValid());
			AcquiredLock next = other.acquire("stock", Duration.ofSeconds(10));
			assertThat(next.fencingToken()).isGreaterThan(lock.fencingToken());
			next.release();
			await().atMost(AWAIT)
				.until(() -> client.getZookeeperClient().isConnected()
						&& client.getZookeeperClient().getZooKeeper().getSessionId() != session);
			assertThat(lock.isValid()).isFalse();
			return "counted";
		})).withMessageContaining("session");
	}

	/**
	 * Under the lost trigger, a session that Curator declares lost while ZooKeeper is
	 * still away loses the lock then: the holder is interrupted without waiting for
	 * ZooKeeper to come back (the new session's reconnection would lose it too, but only
	 * once ZooKeeper is back). Kills PIT's survivor "removed call to loseAll" in
	 * {@code LockLossDetector.connectionStateChanged}.
	 */
	@Test
	void lostTriggerInterruptsTheHolderWhenTheSessionIsLostWhileZooKeeperIsStillAway() throws Exception {
		LockTemplate template = template(this.zookeeper.newClient(),
				new LostLockPolicy(LostLockPolicy.Trigger.LOST, EnumSet.of(LostLockPolicy.Action.INTERRUPT)));
		long start = System.nanoTime();
		String result = template.execute("archive", (lock) -> {
			this.zookeeper.stop();
			try {
				Thread.sleep(60_000);
				return "slept";
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return "interrupted";
			}
		});
		assertThat(result).isEqualTo("interrupted");
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(AWAIT);
	}

	@Test
	void waiterWhoseSessionEndsWhileQueuedHoldsTheLockOnlyInItsNewSession() throws Exception {
		ZooKeeperLockRegistry holder = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		CuratorFramework waiterClient = this.zookeeper.newClient();
		ZooKeeperLockRegistry waiter = new ZooKeeperLockRegistry(waiterClient, "/locks");
		AcquiredLock held = holder.acquire("queue", Duration.ofSeconds(5));
		long firstSession = waiterClient.getZookeeperClient().getZooKeeper().getSessionId();
		CompletableFuture<AcquiredLock> waiting = CompletableFuture
			.supplyAsync(() -> waiter.acquire("queue", Duration.ofSeconds(20)));
		await().atMost(AWAIT).until(() -> waiterClient.getChildren().forPath(waiter.pathOf("queue")).size() == 2);
		waiterClient.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
		await().atMost(AWAIT)
			.ignoreExceptions()
			.until(() -> waiterClient.getZookeeperClient().getZooKeeper().getSessionId() != firstSession
					&& waiterClient.getZookeeperClient().isConnected());
		held.release();
		AcquiredLock lock = waiting.get(20, TimeUnit.SECONDS);
		try {
			assertThat(lock.isValid()).isTrue();
			String node = waiterClient.getChildren().forPath(waiter.pathOf("queue")).get(0);
			Stat stat = waiterClient.checkExists().forPath(waiter.pathOf("queue") + "/" + node);
			assertThat(stat.getEphemeralOwner())
				.isEqualTo(waiterClient.getZookeeperClient().getZooKeeper().getSessionId());
			assertThat(lock.fencingToken()).isEqualTo(LockNode.fencingTokenOf(stat.getCzxid(), 0));
		}
		finally {
			lock.release();
		}
	}

	/**
	 * Has the registry's detector handle a pause of the process longer than half the
	 * session timeout, as its pause watcher does.
	 */
	private static void pauseDetected(ZooKeeperLockRegistry registry) {
		registry.lossDetector()
			.pauseDetected(ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS * 3 / 4,
					ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS);
	}

	private static LostLockPolicy interruptingOnSuspension() {
		return new LostLockPolicy(LostLockPolicy.Trigger.SUSPENDED, EnumSet.of(LostLockPolicy.Action.INTERRUPT));
	}

	/**
	 * Keeps Curator from telling the client's listeners of connection changes until the
	 * latch opens: stops and restarts the server, and blocks Curator's event thread in
	 * the first event that follows, while the client reconnects.
	 */
	private void holdUpConnectionEvents(CuratorFramework client, CountDownLatch eventsGoOn) throws Exception {
		CountDownLatch blocked = new CountDownLatch(1);
		client.getConnectionStateListenable().addListener((source, state) -> {
			if (blocked.getCount() > 0) {
				blocked.countDown();
				awaitUninterruptibly(eventsGoOn);
			}
		});
		this.zookeeper.stop();
		blocked.await(AWAIT.toSeconds(), TimeUnit.SECONDS);
		this.zookeeper.restart();
		await().atMost(AWAIT).until(() -> client.getZookeeperClient().isConnected());
	}

	private static void awaitUninterruptibly(CountDownLatch latch) {
		while (true) {
			try {
				latch.await();
				return;
			}
			catch (InterruptedException ex) {
				// the latch opens at the end of the test
			}
		}
	}

	private LockTemplate template(CuratorFramework client, LostLockPolicy policy) {
		return new LockTemplate(new ZooKeeperLockRegistry(client, "/locks", policy), Duration.ofSeconds(5));
	}

	private void stopServer() {
		try {
			this.zookeeper.stop();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
