package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.stream.IntStream;

import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.listen.ListenerManager;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * A registry that spreads its keys over several ZooKeeper sessions: each key locks
 * through one session, always the same; locks exclude each other across registries of any
 * number of sessions, with fencing tokens that grow; and a session that ends loses the
 * locks of its keys only, as the registry's one session would.
 */
class SeveralSessionsTests {

	private static final Duration AWAIT = Duration.ofSeconds(15);

	private static final Duration WAIT = Duration.ofSeconds(5);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final List<ZooKeeperLockRegistry> registries = new ArrayList<>();

	@AfterEach
	void closeRegistries() {
		this.registries.forEach(ZooKeeperLockRegistry::close);
	}

	@Test
	void eachKeyLocksThroughOneSessionAndTheKeysUseEverySession() throws Exception {
		List<CuratorFramework> clients = clients(3);
		ZooKeeperLockRegistry registry = registry(clients);
		Map<String, String> sessionOfKey = new HashMap<>();
		for (int round = 0; round < 2; round++) {
			for (int i = 0; i < 30; i++) {
				String key = "order:" + i;
				AcquiredLock lock = registry.acquire(key, WAIT);
				String session = registry.queueOf(key).get(0).sessionId();
				assertThat(sessionOfKey.putIfAbsent(key, session)).as("the session of " + key).isIn(null, session);
				lock.release();
			}
		}
		assertThat(sessionOfKey.values()).containsOnly(sessionIds(clients)).contains(sessionIds(clients));
		assertThat(registry.keysInUse()).isZero();
	}

	@Test
	void locksExcludeAcrossRegistriesOfSeveralSessionsAndTokensGrow() throws Exception {
		ZooKeeperLockRegistry first = registry(clients(2));
		ZooKeeperLockRegistry second = registry(clients(3));
		ZooKeeperLockRegistry single = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		this.registries.add(single);
		long previous = 0;
		for (int i = 0; i < 10; i++) {
			String key = "account:" + i;
			AcquiredLock held = first.acquire(key, WAIT);
			assertThat(held.fencingToken()).isGreaterThan(previous);
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> second.acquire(key, Duration.ofMillis(100)));
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> single.acquireDetached(key, LockType.READ, 1, Duration.ofMillis(100)));
			held.release();
			AcquiredLock next = second.acquire(key, WAIT);
			assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
			next.release();
			previous = next.fencingToken();
		}
	}

	@Test
	void aSessionThatEndsLosesTheLocksOfItsKeysOnly() throws Exception {
		List<CuratorFramework> clients = clients(2);
		ZooKeeperLockRegistry registry = registry(clients);
		List<AcquiredLock> held = IntStream.range(0, 20)
			.mapToObj((i) -> registry.acquireDetached("tenant:" + i, LockType.EXCLUSIVE, 1, WAIT))
			.toList();
		assertThat(registry.heldLocks()).hasSize(20);
		assertThat(held).as("the locks before any session ended").allMatch(AcquiredLock::isValid);
		String ended = Long.toHexString(clients.get(1).getZookeeperClient().getZooKeeper().getSessionId());
		List<AcquiredLock> ofEndedSession = held.stream()
			.filter((lock) -> registry.queueOf(lock.key()).get(0).sessionId().equals(ended))
			.toList();
		assertThat(ofEndedSession).isNotEmpty().hasSizeLessThan(held.size());
		clients.get(1).getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
		await().atMost(AWAIT).until(() -> ofEndedSession.stream().noneMatch(AcquiredLock::isValid));
		assertThat(held).filteredOn((lock) -> !ofEndedSession.contains(lock))
			.as("the locks of the session that lasted")
			.allMatch(AcquiredLock::isValid);
		ZooKeeperLockRegistry other = registry(clients(1));
		for (AcquiredLock lost : ofEndedSession) {
			AcquiredLock taken = other.acquire(lost.key(), AWAIT);
			assertThat(taken.fencingToken()).isGreaterThan(lost.fencingToken());
			taken.release();
		}
		held.forEach(AcquiredLock::release);
		assertThat(registry.heldLocks()).isEmpty();
	}

	/**
	 * A delayed release ends its hold in the session of its key, as a release does: the
	 * registry lists no lock held once every delayed release is done, and another
	 * registry then takes each key with a greater token.
	 */
	@Test
	void delayedReleasesEndTheirHoldsInTheSessionsOfTheirKeys() throws Exception {
		ZooKeeperLockRegistry registry = registry(clients(3));
		List<AcquiredLock> held = IntStream.range(0, 20)
			.mapToObj((i) -> registry.acquireDetached("report:" + i, LockType.EXCLUSIVE, 1, WAIT))
			.toList();
		held.stream()
			.map((lock) -> lock.releaseAfter(Duration.ofMillis(10)).toCompletableFuture())
			.toList()
			.forEach(CompletableFuture::join);
		assertThat(registry.heldLocks()).isEmpty();
		assertThat(registry.keysInUse()).isZero();
		ZooKeeperLockRegistry other = registry(clients(1));
		for (AcquiredLock released : held) {
			AcquiredLock taken = other.acquire(released.key(), AWAIT);
			assertThat(taken.fencingToken()).isGreaterThan(released.fencingToken());
			taken.release();
		}
	}

	/**
	 * Closing a registry of several sessions stops watching every one of its clients: no
	 * connection listener stays on any, and the clients, which belong to their owner,
	 * stay open and usable.
	 */
	@Test
	void aClosedRegistryLeavesNoListenerOnAnyOfItsClients() throws Exception {
		List<CuratorFramework> clients = clients(3);
		List<Integer> listeners = clients.stream().map(SeveralSessionsTests::connectionListeners).toList();
		ZooKeeperLockRegistry registry = registry(clients);
		for (int i = 0; i < 30; i++) {
			registry.acquire("invoice:" + i, WAIT).release();
		}
		assertThat(clients).allMatch((client) -> connectionListeners(client) > listeners.get(clients.indexOf(client)),
				"watched by the registry");
		registry.close();
		assertThat(clients.stream().map(SeveralSessionsTests::connectionListeners).toList()).isEqualTo(listeners);
		for (CuratorFramework client : clients) {
			assertThat(client.checkExists().forPath("/locks")).as("the root, read by a client still open").isNotNull();
		}
	}

	@Test
	void clientsMustBeGivenDistinctAndNotNull() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ZooKeeperLockRegistry(List.of(), "/locks", LostLockPolicy.defaults(),
					HandOffPolicy.defaults()))
			.withMessage("'clients' must not be null or empty");
		List<CuratorFramework> withNull = new ArrayList<>();
		withNull.add(client);
		withNull.add(null);
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ZooKeeperLockRegistry(withNull, "/locks", LostLockPolicy.defaults(),
					HandOffPolicy.defaults()))
			.withMessageStartingWith("'clients' must not contain null");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new ZooKeeperLockRegistry(List.of(client, client), "/locks", LostLockPolicy.defaults(),
					HandOffPolicy.defaults()))
			.withMessage("'clients' must be distinct: each is a session of its own");
	}

	private List<CuratorFramework> clients(int count) throws InterruptedException {
		List<CuratorFramework> clients = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			clients.add(this.zookeeper.newClient());
		}
		return clients;
	}

	private ZooKeeperLockRegistry registry(List<CuratorFramework> clients) {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(clients, "/locks", LostLockPolicy.defaults(),
				HandOffPolicy.defaults());
		this.registries.add(registry);
		return registry;
	}

	private static int connectionListeners(CuratorFramework client) {
		return ((ListenerManager<?, ?>) client.getConnectionStateListenable()).size();
	}

	private static String[] sessionIds(List<CuratorFramework> clients) {
		return clients.stream().map(SeveralSessionsTests::sessionId).toArray(String[]::new);
	}

	private static String sessionId(CuratorFramework client) {
		try {
			return Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId());
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
