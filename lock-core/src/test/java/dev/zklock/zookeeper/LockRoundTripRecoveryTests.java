package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.zklock.LockAcquisitionException;
import dev.zklock.testsupport.ReplyHoldingProxy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.ProtectedUtils;
import org.apache.zookeeper.CreateMode;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.Watcher;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * How the create of a lock's node and the read of the queue sent right behind it recover
 * when their requests or replies are lost with the connection, when the answer comes
 * after the acquisition gave up, or when the read does not show the node; and that a
 * waiter leaves neither nodes nor watches behind.
 */
class LockRoundTripRecoveryTests extends AbstractLockRoundTripTests {

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
	void lateCopyOfANodeCreatedAcrossAConnectionLossIsDeletedAtItsRelease() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		Future<AcquiredLock> acquisition = startAcquisitionWith(this.proxy::holdReplies, registry, "late-copy");
		String keyPath = registry.pathOf("late-copy");
		CuratorFramework observer = this.zookeeper.newClient();
		await().until(() -> observer.getChildren().forPath(keyPath).size() == 1);
		this.proxy.dropConnections();
		releaseWithALateCopy(acquisition.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS), keyPath, observer);
		registry(this.zookeeper.newClient()).acquire("late-copy", Duration.ofSeconds(5)).release();
	}

	@Test
	void lateCopyOfANodeWhoseCreateWasSentAgainIsDeletedAtItsRelease() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		Future<AcquiredLock> acquisition = startAcquisitionWith(this.proxy::loseRequests, registry, "resent");
		String keyPath = registry.pathOf("resent");
		CuratorFramework observer = this.zookeeper.newClient();
		this.proxy.dropConnections();
		// the create sent again was answered with its node: only the announced loss of
		// the
		// connection tells that a copy may turn up
		releaseWithALateCopy(acquisition.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS), keyPath, observer);
		registry(this.zookeeper.newClient()).acquire("resent", Duration.ofSeconds(5)).release();
	}

	/**
	 * Plants a copy of the lock's node in its session, as a create applied twice makes
	 * one after the holder's last look at the queue, releases the lock, and waits until
	 * the copy is deleted.
	 */
	private void releaseWithALateCopy(AcquiredLock lock, String keyPath, CuratorFramework observer) throws Exception {
		String held = observer.getChildren().forPath(keyPath).get(0);
		String id = ProtectedUtils.extractProtectedId(held).orElseThrow();
		// the create sent twice, applied again after the holder's last look at the queue
		String copy = this.proxiedClient.create()
			.withMode(CreateMode.EPHEMERAL_SEQUENTIAL)
			.forPath(keyPath + "/" + ProtectedUtils.getProtectedPrefix(id) + "lock-");
		lock.release();
		await().until(() -> observer.checkExists().forPath(copy) == null);
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
		createUnreapedKeyNode(waiter, "watched");
		lockOnce(waiter, "watched");
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
	void transactionOfANewKeyWhoseReplyIsLostToAConnectionLossTakesTheLockWithOneNode() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		String keyPath = registry.pathOf("lost-transaction");
		CuratorFramework observer = this.zookeeper.newClient();
		lockOnce(registry, "warm-up");
		this.proxy.holdReplies();
		Future<AcquiredLock> acquisition = this.threads.submit(() -> registry.acquire("lost-transaction", LONG_WAIT));
		await().until(() -> observer.checkExists().forPath(keyPath) != null
				&& observer.getChildren().forPath(keyPath).size() == 1);
		String firstSent = observer.getChildren().forPath(keyPath).get(0);
		String taken = lockNodeAfterReconnecting(acquisition, observer, keyPath);
		assertThat(taken).doesNotStartWith(firstSent.substring(0, firstSent.indexOf("-lock-")));
	}

	@Test
	void transactionOfANewKeyThatCuratorGaveUpOnLeavesNoNode() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		String keyPath = registry.pathOf("given-up");
		CuratorFramework observer = this.zookeeper.newClient();
		lockOnce(registry, "warm-up");
		this.proxy.holdReplies();
		Future<AcquiredLock> acquisition = this.threads.submit(() -> registry.acquire("given-up", LONG_WAIT));
		await().until(() -> observer.checkExists().forPath(keyPath) != null
				&& observer.getChildren().forPath(keyPath).size() == 1);
		// the client retries once: the transaction sent again is answered with a
		// connection
		// loss too, and Curator gives up on it
		this.proxy.holdRepliesFrom(ReplyHoldingProxy.MULTI);
		this.proxy.dropConnections();
		await().until(() -> this.proxy.requests().stream().filter((op) -> op == ReplyHoldingProxy.MULTI).count() == 2);
		lockNodeAfterReconnecting(acquisition, observer, keyPath);
	}

	@Test
	void transactionOfANewKeyAnsweredAfterTheAcquisitionGaveUpLeavesNoNode() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		String keyPath = registry.pathOf("late-transaction");
		CuratorFramework observer = this.zookeeper.newClient();
		lockOnce(registry, "warm-up");
		this.proxy.holdReplies();
		Future<AcquiredLock> acquisition = this.threads
			.submit(() -> registry.acquire("late-transaction", Duration.ofMillis(200)));
		await().until(() -> observer.checkExists().forPath(keyPath) != null);
		assertCutShortForNoAnswer(acquisition);
		this.proxy.releaseReplies();
		await().until(() -> {
			Stat keyNode = observer.checkExists().forPath(keyPath);
			return keyNode == null || keyNode.getNumChildren() == 0;
		});
		registry(this.zookeeper.newClient()).acquire("late-transaction", Duration.ofSeconds(10)).release();
	}

	@Test
	void nodeOfATransactionAnsweredInAnotherSessionThanItWasSentInIsReadForItsOwner() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		LockQueue queue = new LockQueue(new LockRoot(client, "/locks"), "session-changed");
		client.create().creatingParentsIfNeeded().forPath("/locks");
		long deadline = System.nanoTime() + LONG_WAIT.toNanos();
		AtomicLong sessions = new AtomicLong();
		LockQueue.Arrival arrival = queue.enqueue(LockNodeKind.EXCLUSIVE, HolderIdentity.current("round-trips", true),
				() -> 0, sessions::incrementAndGet, deadline);
		Stat stat = client.checkExists().forPath(arrival.node().path());
		assertThat(arrival.node().sessionId()).isEqualTo(stat.getEphemeralOwner())
			.isEqualTo(client.getZookeeperClient().getZooKeeper().getSessionId());
		assertThat(arrival.node().czxid()).isEqualTo(stat.getCzxid());
		assertThat(arrival.node().copiesPossible()).isTrue();
		queue.abandon(arrival.node());
	}

	@Test
	void firstLookAtTheQueueThatMissesTheNodeIsReadAgain() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		LockQueue queue = new LockQueue(new LockRoot(client, "/locks"), "stale-first-look");
		client.create().creatingParentsIfNeeded().forPath(queue.keyPath());
		long deadline = System.nanoTime() + LONG_WAIT.toNanos();
		LockQueue.Read readBeforeTheNodeExisted = queue.read(false);
		readBeforeTheNodeExisted.children(deadline);
		LockQueue.Arrival arrival = queue.enqueue(LockNodeKind.EXCLUSIVE, HolderIdentity.current("round-trips", true),
				() -> 0, () -> 0, deadline);
		LockQueue.Arrival staleArrival = new LockQueue.Arrival(arrival.node(), readBeforeTheNodeExisted, 0);
		assertThat(queue.awaitTurn(staleArrival, deadline, () -> 0)).isPresent();
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
		assertThat(lock.fencingToken()).isEqualTo(
				LockNode.fencingTokenOf(observer.checkExists().forPath(keyPath + "/" + nodes.get(0)).getCzxid(), 0));
		lock.release();
		await().until(() -> {
			Stat keyNode = observer.checkExists().forPath(keyPath);
			// a container reaped once empty, unless the test made it persistent
			return keyNode == null || keyNode.getNumChildren() == 0;
		});
		return nodes.get(0);
	}

	/**
	 * Starts acquiring a key through the proxy with its replies held back, and waits
	 * until the server has created the acquisition's node.
	 */
	private Future<AcquiredLock> startUnansweredAcquisition(ZooKeeperLockRegistry registry, String key,
			Duration waitTime, CuratorFramework observer) throws Exception {
		createUnreapedKeyNode(registry, key);
		lockOnce(registry, key);
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

}
