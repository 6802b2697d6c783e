package dev.zklock.zookeeper;

import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.testsupport.ZooKeeperOperations;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * What an uncontended lock costs in ZooKeeper operations and round trips: the queue
 * protocol's three operations, and the read of the queue sent right behind the create, so
 * that acquiring takes one round trip.
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

}
