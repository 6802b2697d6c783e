package dev.zklock.zookeeper;

import java.net.ServerSocket;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.testsupport.BusyMachine;
import dev.zklock.testsupport.ContainerNodes;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.listen.ListenerManager;
import org.apache.curator.retry.RetryOneTime;
import org.apache.zookeeper.ZooDefs;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatException;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;
import static org.junit.jupiter.api.Assertions.assertTimeoutPreemptively;

class ZooKeeperLockRegistryTests {

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private CuratorFramework client;

	private CuratorFramework otherClient;

	private ZooKeeperLockRegistry registry;

	private ZooKeeperLockRegistry otherRegistry;

	@BeforeEach
	void connect() throws Exception {
		this.client = this.zookeeper.newClient();
		this.otherClient = this.zookeeper.newClient();
		this.registry = new ZooKeeperLockRegistry(this.client, "/locks");
		this.otherRegistry = new ZooKeeperLockRegistry(this.otherClient, "/locks");
	}

	@Test
	void everyKeyIsOneNodeDirectlyUnderTheRoot() throws Exception {
		List<String> keys = List.of("a/b", "..", "../../escape", "/", "订单:1", "k".repeat(10_000), "zookeeper");
		for (String key : keys) {
			AcquiredLock lock = this.registry.acquire(key, Duration.ofSeconds(5));
			try {
				assertThat(this.client.getChildren().forPath("/locks")).contains(LockRoot.nodeName(key));
				assertThat(this.client.getChildren().forPath(this.registry.pathOf(key))).singleElement()
					.asString()
					.contains("-lock-");
			}
			finally {
				lock.release();
			}
		}
		assertThat(this.client.getChildren().forPath("/")).isSubsetOf("locks", "zookeeper");
		assertThat(ContainerNodes.childrenOf(this.client, "/locks"))
			.isSubsetOf(keys.stream().map(LockRoot::nodeName).toList());
	}

	/**
	 * The queue as operators see it: its nodes in the order ZooKeeper queued them, which
	 * its listing of the key's children does not keep, and which of them hold. Kills
	 * PIT's survivors in {@code LockQueue.nodes} (its sort) and
	 * {@code LockQueue.turnHasCome}.
	 */
	@Test
	void queueOfListsTheNodesInQueueOrderAndTellsWhichHold() throws Exception {
		List<ZooKeeperLockRegistry> readers = new ArrayList<>();
		List<AcquiredLock> reads = new ArrayList<>();
		for (int reader = 0; reader < 12; reader++) {
			readers.add(new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks"));
			reads.add(readers.get(reader).acquireDetached("catalog", LockType.READ, 1, Duration.ofSeconds(5)));
		}
		ExecutorService writer = Executors.newSingleThreadExecutor();
		try {
			Future<AcquiredLock> writing = writer
				.submit(() -> this.registry.acquireDetached("catalog", LockType.WRITE, 1, Duration.ofSeconds(30)));
			await().atMost(Duration.ofSeconds(20)).until(() -> this.otherRegistry.queueOf("catalog").size() == 13);
			List<QueuedLockNode> queue = this.otherRegistry.queueOf("catalog");
			assertThat(queue).extracting(QueuedLockNode::fencingToken).as("the queue's order").isSorted();
			assertThat(queue.subList(0, 12)).extracting(QueuedLockNode::fencingToken)
				.containsExactlyElementsOf(reads.stream().map(AcquiredLock::fencingToken).toList());
			assertThat(queue.subList(0, 12)).allMatch(QueuedLockNode::holding, "holding");
			assertThat(queue.get(12).holding()).as("the writer's turn").isFalse();
			reads.forEach(AcquiredLock::release);
			writing.get(30, TimeUnit.SECONDS).release();
		}
		finally {
			writer.shutdownNow();
			readers.forEach(ZooKeeperLockRegistry::close);
		}
	}

	/**
	 * A waiter whose node is deleted under it (by an operator, say) finds it gone once
	 * the lock is released, queues again and takes the lock within its wait time. Kills
	 * PIT's uncovered mutants of {@code LockQueue.sessionEnded}'s deadline check.
	 */
	@Test
	void waiterWhoseNodeIsDeletedQueuesAgainAndTakesTheLock() throws Exception {
		AcquiredLock held = this.registry.acquireDetached("inbox", LockType.EXCLUSIVE, 1, Duration.ofSeconds(5));
		ExecutorService waiter = Executors.newSingleThreadExecutor();
		try {
			Future<AcquiredLock> waiting = waiter.submit(
					() -> this.otherRegistry.acquireDetached("inbox", LockType.EXCLUSIVE, 1, Duration.ofSeconds(30)));
			await().atMost(Duration.ofSeconds(20)).until(() -> this.registry.queueOf("inbox").size() == 2);
			String waiterNode = this.registry.queueOf("inbox").get(1).node();
			this.client.delete().forPath(this.registry.pathOf("inbox") + "/" + waiterNode);
			held.release();
			AcquiredLock taken = waiting.get(30, TimeUnit.SECONDS);
			assertThat(taken.isValid()).isTrue();
			assertThat(this.registry.queueOf("inbox")).singleElement()
				.satisfies((node) -> assertThat(node.node()).isNotEqualTo(waiterNode))
				.satisfies((node) -> assertThat(node.fencingToken()).isEqualTo(taken.fencingToken()));
			taken.release();
		}
		finally {
			waiter.shutdownNow();
		}
	}

	/**
	 * The registry's threads never keep the JVM running, so an application that does not
	 * close its registry still exits; a closed registry leaves no listener on the client,
	 * which outlives it. Kills PIT's survivors "removed call to setDaemon" (the
	 * registry's scheduler, the pause watcher) and "removed call to removeListener" in
	 * {@code LockLossDetector.close}.
	 */
	@Test
	void registryThreadsAreDaemonsAndAClosedRegistryLeavesNoListenerOnTheClient() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		int listeners = ((ListenerManager<?, ?>) client.getConnectionStateListenable()).size();
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/locks");
		registry.acquire("daemons", Duration.ofSeconds(5)).release();
		assertThat(Thread.getAllStackTraces().keySet()).filteredOn((thread) -> thread.getName().startsWith("zklock-"))
			.extracting(Thread::getName)
			.contains("zklock-registry")
			.anyMatch((name) -> name.startsWith("zklock-pause-watcher-"));
		assertThat(Thread.getAllStackTraces().keySet()).filteredOn((thread) -> thread.getName().startsWith("zklock-"))
			.allMatch(Thread::isDaemon, "daemon");
		registry.close();
		assertThat(((ListenerManager<?, ?>) client.getConnectionStateListenable()).size()).isEqualTo(listeners);
	}

	/**
	 * A request that ZooKeeper refuses, here under a root whose ACL lets this client only
	 * read, fails the acquisition at once, naming the refusal: it is no outage to wait
	 * out. Kills PIT's survivor "replaced boolean return with true" in
	 * {@code LockQueue.isConnectionFault}.
	 */
	@Test
	void acquisitionThatZooKeeperRefusesFailsAtOnce() throws Exception {
		this.client.create().withACL(ZooDefs.Ids.READ_ACL_UNSAFE).forPath("/read-only");
		ZooKeeperLockRegistry reader = new ZooKeeperLockRegistry(this.client, "/read-only");
		Duration waitTime = Duration.ofSeconds(30);
		long start = System.nanoTime();
		try {
			assertThatException().isThrownBy(() -> reader.acquire("denied", waitTime))
				.withStackTraceContaining("NoAuth");
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(waitTime.dividedBy(2));
		}
		finally {
			reader.close();
		}
	}

	/**
	 * An acquisition by a client that never reached ZooKeeper waits for the client's
	 * first connection up to its connection timeout, not for ever, and fails naming it.
	 * Kills PIT's uncovered mutant "replaced long subtraction with addition" of the bound
	 * in {@code LockQueue.awaitConnection}.
	 */
	@Test
	void acquisitionOfAClientThatNeverConnectedFailsAfterItsConnectionTimeout() throws Exception {
		int unusedPort;
		try (ServerSocket socket = new ServerSocket(0)) {
			unusedPort = socket.getLocalPort();
		}
		try (CuratorFramework stranded = CuratorFrameworkFactory.newClient("127.0.0.1:" + unusedPort, 10_000, 1_000,
				new RetryOneTime(100))) {
			stranded.start();
			ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(stranded, "/locks");
			try {
				assertTimeoutPreemptively(Duration.ofSeconds(1).plus(BusyMachine.MARGIN),
						() -> assertThatExceptionOfType(LockAcquisitionException.class)
							.isThrownBy(() -> registry.acquire("stranded", Duration.ZERO))
							.withMessageContaining("no connection to ZooKeeper (127.0.0.1:" + unusedPort
									+ ") within 1000ms of starting"));
			}
			finally {
				registry.close();
			}
		}
	}

	@Test
	void holderAndWaiterInOtherSessionsAreMutuallyExclusive() throws Exception {
		AcquiredLock held = this.registry.acquire("order:1", Duration.ofSeconds(5));
		Duration waitTime = Duration.ofMillis(700);
		long start = System.nanoTime();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> this.otherRegistry.acquire("order:1", waitTime))
			.withMessageContaining("'order:1'")
			.withMessageContaining("700ms");
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(650),
				waitTime.plus(BusyMachine.MARGIN));
		held.release();
		AcquiredLock next = this.otherRegistry.acquire("order:1", Duration.ofSeconds(10));
		next.release();
	}

	@Test
	void waitersOfOtherSessionsAreServedInTheOrderTheyQueued() throws Exception {
		AcquiredLock held = this.registry.acquire("queue", Duration.ofSeconds(5));
		List<Integer> served = new CopyOnWriteArrayList<>();
		List<CompletableFuture<Void>> waiters = new ArrayList<>();
		ExecutorService threads = Executors.newFixedThreadPool(3);
		try {
			for (int waiter = 1; waiter <= 3; waiter++) {
				int number = waiter;
				ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
				waiters.add(CompletableFuture.runAsync(() -> {
					AcquiredLock lock = registry.acquire("queue", Duration.ofSeconds(20));
					served.add(number);
					lock.release();
				}, threads));
				await().atMost(Duration.ofSeconds(10))
					.until(() -> this.client.getChildren().forPath(this.registry.pathOf("queue")).size() == number + 1);
			}
			held.release();
			CompletableFuture.allOf(waiters.toArray(CompletableFuture[]::new)).get(30, TimeUnit.SECONDS);
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(served).containsExactly(1, 2, 3);
	}

	@Test
	void zeroWaitTriesOnceWhileHeld() throws Exception {
		AcquiredLock held = this.registry.acquire("job", Duration.ofSeconds(10));
		try {
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> this.otherRegistry.acquire("job", Duration.ZERO));
		}
		finally {
			held.release();
		}
	}

	@Test
	void fencingTokensIncreaseAcrossClients() {
		long previous = 0;
		for (int i = 0; i < 10; i++) {
			ZooKeeperLockRegistry registry = (i % 2 == 0) ? this.registry : this.otherRegistry;
			AcquiredLock lock = registry.acquire("fenced", Duration.ofSeconds(5));
			assertThat(lock.fencingToken()).isGreaterThan(previous);
			previous = lock.fencingToken();
			lock.release();
		}
	}

	@Test
	void fencingTokensIncreaseAfterZooKeeperReapsTheKeyNode() throws Exception {
		AcquiredLock first = this.registry.acquire("reaped", Duration.ofSeconds(5));
		long firstToken = first.fencingToken();
		first.release();
		await().atMost(Duration.ofSeconds(10))
			.until(() -> this.client.checkExists().forPath(this.registry.pathOf("reaped")) == null);
		this.client.create().forPath("/unrelated-write");
		AcquiredLock second = this.otherRegistry.acquire("reaped", Duration.ofSeconds(5));
		try {
			assertThat(second.fencingToken()).isGreaterThan(firstToken);
			assertThat(this.client.getChildren().forPath(this.registry.pathOf("reaped"))).singleElement()
				.asString()
				.endsWith("-lock-0000000000");
		}
		finally {
			second.release();
		}
	}

	@Test
	void reentrantAcquisitionSharesTheTokenAndHoldsUntilTheOutermostRelease() throws Exception {
		AcquiredLock outer = this.registry.acquire("nested", Duration.ofSeconds(5));
		AcquiredLock inner = this.registry.acquire("nested", Duration.ofSeconds(10));
		assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
		inner.release();
		assertThat(inner.isValid()).isFalse();
		assertThat(outer.isValid()).isTrue();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> this.otherRegistry.acquire("nested", Duration.ZERO));
		outer.release();
		this.otherRegistry.acquire("nested", Duration.ofSeconds(10)).release();
	}

	@Test
	void delayedReleaseKeepsTheLockForTheDelayAndTellsWhenItIsDone() throws Exception {
		AcquiredLock lock = this.registry.acquireDetached("report", LockType.EXCLUSIVE, 1, Duration.ZERO);
		assertThat(this.registry.keysInUse()).as("the keys in use while the lock is held").isOne();
		Duration delay = Duration.ofMillis(400);
		long start = System.nanoTime();
		CompletableFuture<Long> releasedAt = lock.releaseAfter(delay)
			.toCompletableFuture()
			.thenApply((released) -> System.nanoTime());
		AcquiredLock next = this.otherRegistry.acquire("report", Duration.ofSeconds(20));
		assertThat(Duration.ofNanos(System.nanoTime() - start)).as("the other process's wait")
			.isGreaterThanOrEqualTo(delay);
		next.release();
		assertThat(Duration.ofNanos(releasedAt.get(20, TimeUnit.SECONDS) - start)).as("the time until the release")
			.isGreaterThanOrEqualTo(delay);
		assertThat(this.registry.keysInUse()).isZero();
		assertThat(lock.releaseAfter(Duration.ofSeconds(5))).isCompleted();
	}

	@Test
	void closedRegistryRefusesAcquisitionsAndStillReleases() throws Exception {
		AcquiredLock held = this.registry.acquire("closing", Duration.ofSeconds(5));
		AcquiredLock kept = this.registry.acquireDetached("kept", LockType.EXCLUSIVE, 1, Duration.ofSeconds(5));
		this.registry.close();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> this.registry.acquire("another", Duration.ofSeconds(5)))
			.withMessageContaining("'another'")
			.withMessageContaining("registry is closed");
		held.release();
		this.otherRegistry.acquire("closing", Duration.ofSeconds(5)).release();
		CompletableFuture<Void> keptReleased = kept.releaseAfter(Duration.ofMillis(1)).toCompletableFuture();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> this.otherRegistry.acquire("kept", Duration.ofMillis(500)));
		assertThat(keptReleased).isNotDone();
		this.client.close();
		this.otherRegistry.acquire("kept", Duration.ofSeconds(5)).release();
	}

	@Test
	void keysAreForgottenWhenNoThreadUsesThem() {
		for (int i = 0; i < 100; i++) {
			this.registry.acquire("key-" + i, Duration.ofSeconds(5)).release();
		}
		assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> {
			AcquiredLock held = this.otherRegistry.acquire("busy", Duration.ofSeconds(10));
			try {
				this.registry.acquire("busy", Duration.ZERO);
			}
			finally {
				held.release();
			}
		});
		assertThat(this.registry.keysInUse()).isZero();
		assertThat(this.otherRegistry.keysInUse()).isZero();
	}

	@Test
	void handleTurnsInvalidWhenTheConnectionIsSuspended() throws Exception {
		AcquiredLock held = this.registry.acquire("suspended", Duration.ofSeconds(5));
		assertThat(held.isValid()).isTrue();
		this.zookeeper.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !held.isValid());
		held.release();
	}

	@Test
	void acquisitionFailsWithinTheConnectionTimeoutWhenZooKeeperIsDown() throws Exception {
		this.zookeeper.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.client.getZookeeperClient().isConnected());
		Duration waitTime = Duration.ofSeconds(1);
		long start = System.nanoTime();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> this.registry.acquire("down", waitTime))
			.withMessageContaining("'down'")
			.withMessageContaining("no connection to ZooKeeper");
		// a wait time shorter than the connection timeout waits for the connection that
		// long
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(
				Duration.ofMillis(this.client.getZookeeperClient().getConnectionTimeoutMs()).plus(BusyMachine.MARGIN));
		assertThat(this.registry.keysInUse()).isZero();
	}

	@Test
	void lockingResumesWhenZooKeeperReturns() throws Exception {
		this.zookeeper.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !this.client.getZookeeperClient().isConnected());
		this.zookeeper.restart();
		AcquiredLock lock = this.registry.acquire("back", Duration.ofSeconds(10));
		assertThat(lock.isValid()).isTrue();
		lock.release();
	}

	@Test
	void rootPathMustBeAValidPathBelowTheZooKeeperRoot() {
		assertThatIllegalArgumentException().isThrownBy(() -> new ZooKeeperLockRegistry(this.client, "locks"))
			.withMessageContaining("'locks'");
		assertThatIllegalArgumentException().isThrownBy(() -> new ZooKeeperLockRegistry(this.client, "/"))
			.withMessageContaining("'/locks'");
		assertThatIllegalArgumentException().isThrownBy(() -> new ZooKeeperLockRegistry(this.client, "/locks/"));
	}

}
