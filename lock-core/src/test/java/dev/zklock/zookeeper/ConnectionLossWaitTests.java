package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ScheduledThreadPoolExecutor;
import java.util.concurrent.TimeUnit;

import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The wait of an acquisition whose request told of a lost connection before Curator did
 * ({@link LockLossDetector#awaitConnectionLossAfter}): it ends when Curator announces the
 * loss, and a wait that ended at its timeout leaves the loss count to Curator's listener,
 * which announces the next loss under the same lock.
 */
class ConnectionLossWaitTests {

	private static final Duration AWAIT = Duration.ofSeconds(15);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ScheduledThreadPoolExecutor scheduler = new ScheduledThreadPoolExecutor(1);

	@AfterEach
	void stopScheduler() {
		this.scheduler.shutdownNow();
	}

	@Test
	void waitEndsWhenCuratorAnnouncesTheLossAndAnEarlierWaitThatTimedOutKeepsNothingLocked() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		try (LockLossDetector detector = new LockLossDetector(client, LostLockPolicy.defaults(), this.scheduler)) {
			long seen = detector.connectionLosses();
			Thread timedOut = new Thread(() -> awaitLoss(detector, seen, Duration.ofMillis(1)));
			timedOut.start();
			timedOut.join(AWAIT.toMillis());
			assertThat(timedOut.isAlive()).as("the wait ended at its timeout").isFalse();
			CompletableFuture<Void> waiting = new CompletableFuture<>();
			new Thread(() -> {
				awaitLoss(detector, seen, Duration.ofMinutes(5));
				waiting.complete(null);
			}).start();
			this.zookeeper.stop();
			waiting.get(AWAIT.toSeconds(), TimeUnit.SECONDS);
			await().atMost(AWAIT).until(() -> detector.connectionLosses() > seen);
		}
	}

	private static void awaitLoss(LockLossDetector detector, long seen, Duration timeout) {
		try {
			detector.awaitConnectionLossAfter(seen, timeout.toNanos());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

}
