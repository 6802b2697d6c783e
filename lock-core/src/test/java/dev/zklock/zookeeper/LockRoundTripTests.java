package dev.zklock.zookeeper;

import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.testsupport.ReplyHoldingProxy;
import dev.zklock.testsupport.ZooKeeperOperations;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.data.Stat;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an uncontended lock costs in ZooKeeper operations and round trips: the queue
 * protocol's three operations, and the read of the queue sent right behind the create, so
 * that acquiring takes one round trip; for a key whose node is missing, the key's node
 * created with the lock node in one transaction, in the same one round trip.
 */
class LockRoundTripTests extends AbstractLockRoundTripTests {

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
	void firstLockOfAKeyCreatesTheKeyNodeWithTheLockNodeInOneTransaction() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry registry = registry(client);
		registry.acquire("warm-up", LONG_WAIT).release();
		String keyPath = registry.pathOf("new-key");
		ZooKeeperOperations operations = ZooKeeperOperations.record(client, keyPath);
		AcquiredLock lock = registry.acquire("new-key", LONG_WAIT);
		assertThat(lock.isValid()).isTrue();
		Stat node = onlyNodeOf(keyPath);
		assertThat(lock.fencingToken()).isEqualTo(LockNode.fencingTokenOf(node.getCzxid(), 0));
		assertThat(node.getEphemeralOwner()).isEqualTo(client.getZookeeperClient().getZooKeeper().getSessionId());
		lock.release();
		assertThat(operations.drain(3)).containsExactly("CuratorMultiTransactionImpl-Background",
				"GetChildrenBuilderImpl-Background", "DeleteBuilderImpl-Background");
	}

	@Test
	void readOfTheQueueGoesOutBeforeTheTransactionOfANewKeyIsAnswered() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		lockOnce(registry, "warm-up");
		this.proxy.holdReplies();
		Future<AcquiredLock> acquisition = this.threads.submit(() -> registry.acquire("new-key", LONG_WAIT));
		await().atMost(LONG_WAIT)
			.until(this.proxy::requests,
					(sent) -> sent.equals(List.of(ReplyHoldingProxy.MULTI, ReplyHoldingProxy.GET_CHILDREN2)));
		assertThat(acquisition).isNotDone();
		this.proxy.releaseReplies();
		AcquiredLock lock = acquisition.get(10, TimeUnit.SECONDS);
		assertThat(lock.isValid()).isTrue();
		assertThat(lock.fencingToken())
			.isEqualTo(LockNode.fencingTokenOf(onlyNodeOf(registry.pathOf("new-key")).getCzxid(), 0));
		lock.release();
	}

	@Test
	void keyNodeThatAnotherProcessCreatedIsQueuedInOneRoundTripLaterAndAtOnceAfterwards() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		lockOnce(registry, "warm-up");
		createUnreapedKeyNode(registry, "theirs");
		AcquiredLock lock = registry.acquire("theirs", LONG_WAIT);
		assertThat(lock.isValid()).isTrue();
		assertThat(lock.fencingToken())
			.isEqualTo(LockNode.fencingTokenOf(onlyNodeOf(registry.pathOf("theirs")).getCzxid(), 0));
		lock.release();
		assertThat(this.proxy.requests()).startsWith(ReplyHoldingProxy.MULTI, ReplyHoldingProxy.GET_CHILDREN2,
				ReplyHoldingProxy.CREATE2, ReplyHoldingProxy.GET_CHILDREN2);
		lockOnce(registry, "theirs");
		this.proxy.forgetRequests();
		registry.acquire("theirs", LONG_WAIT).release();
		assertThat(this.proxy.requests()).startsWith(ReplyHoldingProxy.CREATE2, ReplyHoldingProxy.GET_CHILDREN2);
	}

	@Test
	void keyNodeReapedSinceItsLastLockIsCreatedWithTheLockNodeOneRoundTripLater() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		CuratorFramework observer = this.zookeeper.newClient();
		String keyPath = registry.pathOf("reaped");
		lockOnce(registry, "reaped");
		await().until(() -> observer.checkExists().forPath(keyPath) == null);
		AcquiredLock lock = registry.acquire("reaped", LONG_WAIT);
		assertThat(lock.isValid()).isTrue();
		lock.release();
		assertThat(this.proxy.requests()).startsWith(ReplyHoldingProxy.CREATE2, ReplyHoldingProxy.GET_CHILDREN2,
				ReplyHoldingProxy.MULTI, ReplyHoldingProxy.GET_CHILDREN2);
	}

	private Stat onlyNodeOf(String keyPath) throws Exception {
		CuratorFramework observer = this.zookeeper.newClient();
		List<String> nodes = observer.getChildren().forPath(keyPath);
		assertThat(nodes).hasSize(1);
		return observer.checkExists().forPath(keyPath + "/" + nodes.get(0));
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

}
