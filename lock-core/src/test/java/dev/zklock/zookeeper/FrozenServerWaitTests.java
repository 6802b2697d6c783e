package dev.zklock.zookeeper;

import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.UUID;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.zklock.LockException;
import dev.zklock.LockType;
import dev.zklock.testsupport.process.ServerSettings;
import dev.zklock.testsupport.process.ZooKeeperEnsemble;
import dev.zklock.testsupport.process.ZooKeeperServerProcess;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * One wait time bounds the whole acquisition when the ZooKeeper server's JVM is frozen
 * ({@code kill -STOP}, as in a partition), under a process whose thread holds a key while
 * another of its threads waits for it: the waiter and a new acquisition of another key
 * answer within their wait time plus {@link LockRoot#GRACE}, and a zero wait within the
 * grace, with hand-off on and off, for exclusive, read and semaphore locks. The session
 * (10 s) and Curator's connection timeout (15 s) are far longer than the waits, so only
 * the deadline can end them. {@link WaitTimeBoundTests} covers a killed server and one
 * whose replies a proxy holds back.
 */
@Tag("outage")
class FrozenServerWaitTests {

	private static final Duration WAIT = Duration.ofSeconds(2);

	/** The promise's slack, and the scheduling delay of a busy 2-core machine. */
	private static final Duration SLACK = LockRoot.GRACE.plusSeconds(1);

	private static final Duration AWAIT = Duration.ofSeconds(30);

	@TempDir
	static Path directory;

	private static ZooKeeperEnsemble zookeeper;

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final List<CuratorFramework> clients = new ArrayList<>();

	@BeforeAll
	static void startServer() throws Exception {
		zookeeper = ZooKeeperEnsemble.startServing(directory, 1,
				new ServerSettings(List.of("-Xmx128m"), List.of("tickTime=500")), AWAIT);
	}

	@AfterAll
	static void killServer() {
		zookeeper.close();
	}

	@AfterEach
	void thawAndClose() throws Exception {
		for (ZooKeeperServerProcess server : zookeeper.servers()) {
			server.resume();
		}
		this.threads.shutdownNow();
		this.clients.forEach(CuratorFramework::close);
	}

	static Stream<Arguments> cases() {
		List<Arguments> cases = new ArrayList<>();
		for (boolean handOff : new boolean[] { true, false }) {
			cases.add(Arguments.of(handOff, LockType.EXCLUSIVE, LockType.EXCLUSIVE));
			cases.add(Arguments.of(handOff, LockType.WRITE, LockType.READ));
			cases.add(Arguments.of(handOff, LockType.SEMAPHORE, LockType.SEMAPHORE));
		}
		return cases.stream();
	}

	@ParameterizedTest(name = "hand-off {0}, {2} behind {1}")
	@MethodSource("cases")
	void everyWaitEndsWithinItsWaitTimeWhileTheServerIsFrozen(boolean handOff, LockType holderType, LockType waiterType)
			throws Exception {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client(), "/frozen", LostLockPolicy.defaults(),
				handOff ? HandOffPolicy.defaults() : HandOffPolicy.disabled());
		String key = "key-" + UUID.randomUUID();
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		this.threads.submit(() -> {
			AcquiredLock lock = registry.acquire(key, holderType, 1, WAIT);
			held.countDown();
			release.await();
			lock.release();
			return null;
		});
		assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
		Future<Duration> waiter = this.threads
			.submit(() -> failureTime(() -> registry.acquire(key, waiterType, 1, WAIT)));
		await().until(() -> !registry.waitingLocks().isEmpty());
		zookeeper.servers().get(0).pause();
		Future<Duration> newKey = this.threads
			.submit(() -> failureTime(() -> registry.acquire(key + "-other", waiterType, 1, WAIT)));
		Future<Duration> zeroWait = this.threads
			.submit(() -> failureTime(() -> registry.acquire(key + "-another", waiterType, 1, Duration.ZERO)));
		assertThat(waiter.get(30, TimeUnit.SECONDS)).as("the waiter").isLessThan(WAIT.plus(SLACK));
		assertThat(newKey.get(30, TimeUnit.SECONDS)).as("a new acquisition of another key")
			.isLessThan(WAIT.plus(SLACK));
		assertThat(zeroWait.get(30, TimeUnit.SECONDS)).as("a zero wait").isLessThan(SLACK);
		release.countDown();
	}

	private CuratorFramework client() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(zookeeper.connectString())
			.sessionTimeoutMs(10_000)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		this.clients.add(client);
		client.start();
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client;
	}

	/** How long an acquisition took to fail; it must fail. */
	private static Duration failureTime(Runnable acquisition) {
		long start = System.nanoTime();
		assertThatExceptionOfType(LockException.class).isThrownBy(acquisition::run);
		return Duration.ofNanos(System.nanoTime() - start);
	}

}
