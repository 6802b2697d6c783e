package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Executor;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockType;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.listen.StandardListenerManager;
import org.apache.curator.framework.listen.UnaryListenerManager;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.curator.retry.RetryForever;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.EnumSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A hold whose session ended reads as lost as soon as the client works in another
 * session, even while Curator has not yet told its listeners: Curator marks the client
 * connected on ZooKeeper's event thread, and delivers {@code LOST} and
 * {@code RECONNECTED} on its own listener thread, behind every application listener, so
 * one slow listener leaves a window in which only the sessions tell the truth.
 */
class EndedSessionHoldTests {

	private static final Duration AWAIT = Duration.ofSeconds(15);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final HeldBackListeners listeners = new HeldBackListeners();

	private CuratorFramework client;

	@AfterEach
	void closeClient() {
		this.listeners.letThrough();
		if (this.client != null) {
			this.client.close();
		}
	}

	@ParameterizedTest
	@EnumSource(LostLockPolicy.Trigger.class)
	void holdOfAnEndedSessionIsLostBeforeCuratorTellsItsListeners(LostLockPolicy.Trigger trigger) throws Exception {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client(), "/locks",
				new LostLockPolicy(trigger, EnumSet.noneOf(LostLockPolicy.Action.class)));
		AcquiredLock lock = registry.acquire("ledger", Duration.ofSeconds(5));
		long firstSession = this.client.getZookeeperClient().getZooKeeper().getSessionId();
		this.listeners.holdBack();
		this.client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
		await().atMost(AWAIT)
			.ignoreExceptions()
			.until(() -> this.client.getZookeeperClient().isConnected()
					&& this.client.getZookeeperClient().getZooKeeper().getSessionId() != firstSession);
		assertThat(this.listeners.heldBack()).as("events held back from the listeners").isTrue();
		assertThat(lock.isValid()).as("a hold of the ended session").isFalse();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> registry.acquire("ledger", Duration.ofSeconds(5)))
			.withMessageContaining("was lost")
			.withMessageContaining("session");
		ZooKeeperLockRegistry other = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		AcquiredLock taken = other.acquire("ledger", Duration.ofSeconds(10));
		assertThat(taken.fencingToken()).isGreaterThan(lock.fencingToken());
		taken.release();
		this.listeners.letThrough();
		lock.release();
	}

	@Test
	void holdReadWhileTheConnectionIsDownTellsItsDoubtBeforeCuratorTellsItsListeners() throws Exception {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client(), "/locks",
				new LostLockPolicy(LostLockPolicy.Trigger.LOST, EnumSet.noneOf(LostLockPolicy.Action.class)));
		AcquiredLock lock = registry.acquireDetached("ledger", LockType.EXCLUSIVE, 1, Duration.ofSeconds(5));
		this.listeners.holdBack();
		this.zookeeper.stop();
		await().atMost(AWAIT).until(() -> !this.client.getZookeeperClient().isConnected() && this.listeners.heldBack());
		assertThat(lock.whenInvalidated().toCompletableFuture()).as("told before anything read the hold").isNotDone();
		assertThat(lock.isValid()).as("a hold read while the connection is down").isFalse();
		assertThat(lock.whenInvalidated().toCompletableFuture())
			.isCompletedWithValueMatching((reason) -> reason.contains("suspended"));
		assertThat(lock.isLost()).as("lost, with the connection only suspended").isFalse();
	}

	private CuratorFramework client() throws InterruptedException {
		this.client = CuratorFrameworkFactory.builder()
			.connectString(this.zookeeper.connectString())
			.sessionTimeoutMs(ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS)
			.connectionTimeoutMs(5_000)
			.retryPolicy(new RetryForever(50))
			.connectionStateListenerManagerFactory((client) -> this.listeners)
			.build();
		this.client.start();
		assertThat(this.client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return this.client;
	}

	/**
	 * Curator's connection state listeners, behind a slow application listener that the
	 * test holds up: while it is held, no listener hears of a change of the connection.
	 */
	private static final class HeldBackListeners implements UnaryListenerManager<ConnectionStateListener> {

		private final StandardListenerManager<ConnectionStateListener> listeners = StandardListenerManager.standard();

		private volatile CountDownLatch gate = new CountDownLatch(0);

		private volatile boolean heldBack;

		void holdBack() {
			this.gate = new CountDownLatch(1);
		}

		void letThrough() {
			this.gate.countDown();
		}

		/** Whether an event waits behind the slow listener. */
		boolean heldBack() {
			return this.heldBack;
		}

		@Override
		public void forEach(Consumer<ConnectionStateListener> function) {
			CountDownLatch current = this.gate;
			if (current.getCount() > 0) {
				this.heldBack = true;
				try {
					current.await();
				}
				catch (InterruptedException ex) {
					Thread.currentThread().interrupt();
				}
			}
			this.listeners.forEach(function);
		}

		@Override
		public void addListener(ConnectionStateListener listener) {
			this.listeners.addListener(listener);
		}

		@Override
		public void addListener(ConnectionStateListener listener, Executor executor) {
			this.listeners.addListener(listener, executor);
		}

		@Override
		public void removeListener(ConnectionStateListener listener) {
			this.listeners.removeListener(listener);
		}

		@Override
		public void clear() {
			this.listeners.clear();
		}

		@Override
		public int size() {
			return this.listeners.size();
		}

	}

}
