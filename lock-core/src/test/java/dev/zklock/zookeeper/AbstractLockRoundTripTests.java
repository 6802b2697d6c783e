package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.Future;

import dev.zklock.testsupport.AbstractProxiedZooKeeperTests;
import dev.zklock.testsupport.ReplyHoldingProxy;
import org.apache.curator.framework.CuratorFramework;

import static org.awaitility.Awaitility.await;

/**
 * Base of the tests of a lock's round trips to ZooKeeper: registries on a client that
 * talks to the server through a {@link ReplyHoldingProxy}, and acquisitions started once
 * a fault is in place.
 */
abstract class AbstractLockRoundTripTests extends AbstractProxiedZooKeeperTests {

	static final Duration LONG_WAIT = Duration.ofSeconds(20);

	/**
	 * Starts acquiring a key through the proxy once a fault is in place, and waits until
	 * the create and the first look at the queue have both been sent.
	 * @param fault what the proxy does to the acquisition's requests or replies
	 * @param registry a registry on the proxied client
	 * @param key the key, locked once before the fault so that its node exists
	 * @return the acquisition
	 */
	Future<AcquiredLock> startAcquisitionWith(Runnable fault, ZooKeeperLockRegistry registry, String key)
			throws Exception {
		createUnreapedKeyNode(registry, key);
		lockOnce(registry, key);
		fault.run();
		Future<AcquiredLock> acquisition = this.threads.submit(() -> registry.acquire(key, LONG_WAIT));
		await().atMost(LONG_WAIT)
			.until(this.proxy::requests,
					(sent) -> sent.equals(List.of(ReplyHoldingProxy.CREATE2, ReplyHoldingProxy.GET_CHILDREN2)));
		return acquisition;
	}

	/**
	 * Locks a key once through the proxy, so that the registry knows its node exists and
	 * queues in it with a create, and forgets the requests once the release's deletion
	 * went out (the release does not wait for it).
	 */
	void lockOnce(ZooKeeperLockRegistry registry, String key) throws Exception {
		this.proxy.forgetRequests();
		registry.acquire(key, LONG_WAIT).release();
		await().until(() -> this.proxy.requests().contains(ReplyHoldingProxy.DELETE));
		this.proxy.forgetRequests();
	}

	/**
	 * Creates a key's node as a persistent node, not a container, so that ZooKeeper does
	 * not reap it between two locks of the key and the next lock does not recreate it.
	 */
	void createUnreapedKeyNode(ZooKeeperLockRegistry registry, String key) throws Exception {
		this.zookeeper.newClient().create().creatingParentsIfNeeded().forPath(registry.pathOf(key));
	}

	static ZooKeeperLockRegistry registry(CuratorFramework client) {
		return new ZooKeeperLockRegistry(client, "/locks", LostLockPolicy.defaults(), HandOffPolicy.defaults());
	}

}
