package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockTimeoutException;
import dev.zklock.testsupport.ReplyHoldingProxy;
import dev.zklock.testsupport.ZooKeeperOperations;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * What an uncontended lock costs in ZooKeeper operations and round trips: the queue
 * protocol's three operations, and the read of the queue sent right behind the create, so
 * that acquiring takes one round trip. Also how that pair recovers when its requests or
 * replies are lost with the connection, or its read does not show the node, and that a
 * waiter leaves neither nodes nor watches behind.
 */
class LockRoundTripTests {

	private static final Duration LONG_WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private ReplyHoldingProxy proxy;

	private CuratorFramework proxiedClient;

	@BeforeEach
	void connectThroughProxy() throws Exception {
		this.proxy = ReplyHoldingProxy.start(this.zookeeper.connectString());
		this.proxiedClient = this.proxy.newClient();
	}

	@AfterEach
	void close() throws Exception {
		this.threads.shutdownNow();
		this.proxy.close();
	}

	@Test
	void uncontendedCycleCostsCreateGetChildrenAndDelete() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry registry = registry(client);
		createUnreapedKeyNode(registry, "cycle");
		registry.acquire("cycle", LONG_WAIT).release();
		ZooKeeperOperations operations = ZooKeeperOperations.record(client, "/locks");
		for (int i = 0; i < 3; i++) {
			AcquiredLock lock = registry.acquire("cycle", LONG_WAIT);
			assertThat(lock.fencingToken()).isPositive();
			assertThat(lock.isValid()).isTrue();
			lock.release();
			assertThat(operations.drain(3)).containsExactly("CreateBuilderImpl-Background",
					"GetChildrenBuilderImpl-Background", "DeleteBuilderImpl-Background");
		}
	}

	@Test
	void firstLockOfAKeyCreatesTheKeyNodeInOneMoreRoundTrip() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry registry = registry(client);
		registry.acquire("warm-up", LONG_WAIT).release();
		ZooKeeperOperations operations = ZooKeeperOperations.record(client, registry.pathOf("new-key"));
		AcquiredLock lock = registry.acquire("new-key", LONG_WAIT);
		assertThat(lock.isValid()).isTrue();
		lock.release();
		assertThat(operations.drain(6)).containsExactly("CreateBuilderImpl-Background",
				"GetChildrenBuilderImpl-Background", "CreateBuilderImpl-Background", "CreateBuilderImpl-Background",
				"GetChildrenBuilderImpl-Background", "DeleteBuilderImpl-Background");
	}

	@Test
	void readOfTheQueueGoesOutBeforeTheCreateIsAnswered() throws Exception {
		Future<AcquiredLock> acquisition = startAcquisitionWith(this.proxy::holdReplies, registry(this.proxiedClient),
				"one-trip");
		assertThat(acquisition).isNotDone();
		this.proxy.releaseReplies();
		AcquiredLock lock = acquisition.get(10, TimeUnit.SECONDS);
		assertThat(lock.isValid()).isTrue();
		assertThat(lock.fencingToken()).isPositive();
		lock.release();
	}

	@Test
	void nodeCreatedAfterTheAcquisitionGaveUpIsDeleted() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		String keyPath = registry.pathOf("late");
		CuratorFramework observer = this.zookeeper.newClient();
		Future<AcquiredLock> acquisition = startUnansweredAcquisition(registry, "late", Duration.ofMillis(200),
				observer);
		assertCutShortForNoAnswer(acquisition);
		this.proxy.releaseReplies();
		await().until(() -> observer.checkExists().forPath(keyPath).getNumChildren() == 0);
		AcquiredLock next = registry.acquire("late", LONG_WAIT);
		assertThat(next.isValid()).isTrue();
		next.release();
	}

	@Test
	void tryLockOfAFreeLockWhileZooKeeperIsSlowButConnectedTakesIt() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		createUnreapedKeyNode(registry, "slow");
		ZooKeeperLock lock = registry.obtain("slow");
		this.proxy.holdReplies();
		Future<Boolean> tried = this.threads.submit(() -> {
			boolean taken = lock.tryLock();
			if (taken) {
				lock.unlock();
			}
			return taken;
		});
		await().during(ReplyWait.GRACE.multipliedBy(3)).atMost(LONG_WAIT).until(() -> !tried.isDone());
		this.proxy.releaseReplies();
		assertThat(tried.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
	}

	@Test
	void callerInterruptedWhileZooKeeperDoesNotAnswerStaysInterrupted() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		createUnreapedKeyNode(registry, "interrupted");
		this.proxy.holdReplies();
		AtomicReference<Thread> acquiring = new AtomicReference<>();
		Future<Boolean> stillInterrupted = this.threads.submit(() -> {
			acquiring.set(Thread.currentThread());
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> registry.acquire("interrupted", Duration.ofMillis(100)))
				.withMessageContaining("Interrupted");
			return Thread.currentThread().isInterrupted();
		});
		await().during(ReplyWait.GRACE.multipliedBy(2)).atMost(LONG_WAIT).until(() -> !stillInterrupted.isDone());
		acquiring.get().interrupt();
		assertThat(stillInterrupted.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		this.proxy.releaseReplies();
	}

	@Test
	void holderInterruptedBeforeItsReleaseStaysInterruptedAndTheLockIsFree() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		Future<Boolean> stillInterrupted = this.threads.submit(() -> {
			AcquiredLock lock = registry.acquire("leaving", LONG_WAIT);
			Thread.currentThread().interrupt();
			lock.release();
			return Thread.interrupted();
		});
		assertThat(stillInterrupted.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		registry(this.zookeeper.newClient()).acquire("leaving", LONG_WAIT).release();
	}

	@Test
	void timeoutWhoseHolderCannotBeToldInTimeEndsWithinTheGraceWithoutADescription() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		createUnreapedKeyNode(registry, "undescribed");
		AcquiredLock held = registry(this.zookeeper.newClient()).acquire("undescribed", LONG_WAIT);
		Duration waitTime = Duration.ofSeconds(1);
		Future<Duration> timedOut = this.threads.submit(() -> {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> registry.acquire("undescribed", waitTime))
				.withMessageNotContaining("pid");
			return Duration.ofNanos(System.nanoTime() - start);
		});
		await().until(() -> this.proxy.requests().contains(ReplyHoldingProxy.GET_DATA));
		this.proxy.holdReplies();
		assertThat(timedOut.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS))
			.isLessThan(waitTime.plus(ReplyWait.GRACE).plusSeconds(1));
		this.proxy.releaseReplies();
		held.release();
	}

	@Test
	void acquisitionWhoseRepliesAreLostToAConnectionLossTakesTheLockWithItsOneNode() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		Future<AcquiredLock> acquisition = startAcquisitionWith(this.proxy::holdReplies, registry, "lost-replies");
		String keyPath = registry.pathOf("lost-replies");
		CuratorFramework observer = this.zookeeper.newClient();
		await().until(() -> observer.getChildren().forPath(keyPath).size() == 1);
		String created = observer.getChildren().forPath(keyPath).get(0);
		assertThat(lockNodeAfterReconnecting(acquisition, observer, keyPath)).isEqualTo(created);
	}

	@Test
	void acquisitionWhoseRequestsAreLostToAConnectionLossTakesTheLockWithOneNode() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		Future<AcquiredLock> acquisition = startAcquisitionWith(this.proxy::loseRequests, registry, "lost-requests");
		String keyPath = registry.pathOf("lost-requests");
		assertThat(lockNodeAfterReconnecting(acquisition, this.zookeeper.newClient(), keyPath)).contains("-lock-");
	}

	@Test
	void nodeFoundAgainWhoseStatCannotBeReadIsDeleted() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		String keyPath = registry.pathOf("found-again");
		CuratorFramework observer = this.zookeeper.newClient();
		Future<AcquiredLock> acquisition = startUnansweredAcquisition(registry, "found-again", Duration.ofSeconds(3),
				observer);
		this.proxy.holdRepliesFrom(ReplyHoldingProxy.EXISTS);
		this.proxy.dropConnections();
		assertCutShortForNoAnswer(acquisition);
		this.proxy.releaseReplies();
		await().until(() -> observer.getChildren().forPath(keyPath).isEmpty());
		registry(this.zookeeper.newClient()).acquire("found-again", Duration.ofSeconds(10)).release();
		assertThat(registry.keysInUse()).isZero();
	}

	@Test
	void waiterWhoseBlockerIsGoneBeforeItsWatchIsSetLeavesNoWatchBehind() throws Exception {
		ZooKeeperLockRegistry holder = registry(this.zookeeper.newClient());
		ZooKeeperLockRegistry waiter = registry(this.proxiedClient);
		String keyPath = waiter.pathOf("watched");
		CuratorFramework observer = this.zookeeper.newClient();
		AcquiredLock held = holder.acquire("watched", LONG_WAIT);
		String blocker = keyPath + "/" + observer.getChildren().forPath(keyPath).get(0);
		this.proxy.holdReplies();
		Future<AcquiredLock> acquisition = this.threads.submit(() -> waiter.acquire("watched", LONG_WAIT));
		await().until(() -> observer.getChildren().forPath(keyPath).size() == 2);
		held.release();
		this.proxy.releaseReplies();
		acquisition.get(10, TimeUnit.SECONDS).release();
		assertThat(observer.checkExists().forPath(blocker)).isNull();
		ZooKeeper waitersZooKeeper = this.proxiedClient.getZookeeperClient().getZooKeeper();
		assertThatExceptionOfType(KeeperException.NoWatcherException.class)
			.isThrownBy(() -> waitersZooKeeper.removeAllWatches(blocker, Watcher.WatcherType.Any, true));
	}

	@Test
	void firstLookAtTheQueueThatMissesTheNodeIsReadAgain() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		String keyPath = "/locks/stale-first-look";
		client.create().creatingParentsIfNeeded().forPath(keyPath);
		LockQueue queue = new LockQueue(client, keyPath);
		long deadline = System.nanoTime() + LONG_WAIT.toNanos();
		ReplyWait replies = new ReplyWait(client, deadline);
		QueueRead readBeforeTheNodeExisted = QueueRead.start(client, keyPath, false);
		readBeforeTheNodeExisted.children(replies);
		LockQueue.Arrival arrival = queue.enqueue(LockNodeKind.EXCLUSIVE, HolderIdentity.current("round-trips", true),
				() -> 0, replies);
		LockQueue.Arrival staleArrival = new LockQueue.Arrival(arrival.node(), readBeforeTheNodeExisted, 0);
		assertThat(queue.awaitTurn(staleArrival, deadline, () -> 0, replies)).isPresent();
	}

	/**
	 * Drops the proxy's connections under an acquisition, then checks that it takes the
	 * lock with exactly one node, whose creation is the lock's fencing token, and that
	 * its release leaves no node behind.
	 * @return the name of the lock's node
	 */
	private String lockNodeAfterReconnecting(Future<AcquiredLock> acquisition, CuratorFramework observer,
			String keyPath) throws Exception {
		this.proxy.dropConnections();
		AcquiredLock lock = acquisition.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(lock.isValid()).isTrue();
		List<String> nodes = observer.getChildren().forPath(keyPath);
		assertThat(nodes).hasSize(1);
		assertThat(lock.fencingToken())
			.isEqualTo(FencingTokens.of(observer.checkExists().forPath(keyPath + "/" + nodes.get(0)).getCzxid(), 0));
		lock.release();
		await().until(() -> observer.checkExists().forPath(keyPath).getNumChildren() == 0);
		return nodes.get(0);
	}

	/**
	 * Starts acquiring a key through the proxy once a fault is in place, and waits until
	 * the create and the first look at the queue have both been sent.
	 * @param fault what the proxy does to the acquisition's requests or replies
	 * @param registry a registry on the proxied client
	 * @param key the key, locked once before the fault so that its node exists
	 * @return the acquisition
	 */
	private Future<AcquiredLock> startAcquisitionWith(Runnable fault, ZooKeeperLockRegistry registry, String key)
			throws Exception {
		createUnreapedKeyNode(registry, key);
		registry.acquire(key, LONG_WAIT).release();
		// the release does not wait for its deletion: let it pass before the fault
		await().until(() -> this.proxy.requests().contains(ReplyHoldingProxy.DELETE));
		this.proxy.forgetRequests();
		fault.run();
		Future<AcquiredLock> acquisition = this.threads.submit(() -> registry.acquire(key, LONG_WAIT));
		await().atMost(Duration.ofSeconds(3))
			.until(this.proxy::requests,
					(sent) -> sent.equals(List.of(ReplyHoldingProxy.CREATE2, ReplyHoldingProxy.GET_CHILDREN2)));
		return acquisition;
	}

	/**
	 * Starts acquiring a key through the proxy with its replies held back, and waits
	 * until the server has created the acquisition's node.
	 */
	private Future<AcquiredLock> startUnansweredAcquisition(ZooKeeperLockRegistry registry, String key,
			Duration waitTime, CuratorFramework observer) throws Exception {
		createUnreapedKeyNode(registry, key);
		this.proxy.holdReplies();
		Future<AcquiredLock> acquisition = this.threads.submit(() -> registry.acquire(key, waitTime));
		await().until(() -> observer.getChildren().forPath(registry.pathOf(key)).size() == 1);
		return acquisition;
	}

	private static void assertCutShortForNoAnswer(Future<AcquiredLock> acquisition) {
		assertThatExceptionOfType(ExecutionException.class)
			.isThrownBy(() -> acquisition.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS))
			.withCauseInstanceOf(LockAcquisitionException.class)
			.withMessageContaining("did not answer in time");
	}

	/**
	 * Creates a key's node as a persistent node, not a container, so that ZooKeeper does
	 * not reap it between two locks of the key and the next lock does not recreate it.
	 */
	private void createUnreapedKeyNode(ZooKeeperLockRegistry registry, String key) throws Exception {
		this.zookeeper.newClient().create().creatingParentsIfNeeded().forPath(registry.pathOf(key));
	}

	private static ZooKeeperLockRegistry registry(CuratorFramework client) {
		return new ZooKeeperLockRegistry(client, "/locks", LostLockPolicy.defaults(), HandOffPolicy.defaults());
	}

}
