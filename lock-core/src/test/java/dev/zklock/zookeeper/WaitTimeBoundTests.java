package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.zklock.LockException;
import dev.zklock.LockType;
import dev.zklock.testsupport.ReplyHoldingProxy;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * One wait time bounds the whole acquisition when ZooKeeper dies or freezes under a
 * process whose thread holds a key while another of its threads waits for it: the waiter,
 * a new acquisition of another key, and a zero wait each answer within their wait time
 * plus {@link LockRoot#GRACE}, with hand-off on and off, for exclusive, read and
 * semaphore locks. The clients have Curator's default connection timeout (15 s) and a
 * session far longer than the waits, so that neither can end a wait in time: only the
 * deadline can.
 */
@Tag("outage")
class WaitTimeBoundTests {

	private static final Duration WAIT = Duration.ofSeconds(2);

	/** The promise's slack, and the scheduling delay of a busy machine. */
	private static final Duration SLACK = LockRoot.GRACE.plusSeconds(1);

	private static final int SESSION_TIMEOUT_MILLIS = 10_000;

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ExecutorService threads = Executors.newCachedThreadPool();

	private final List<CuratorFramework> clients = new ArrayList<>();

	private ReplyHoldingProxy proxy;

	@AfterEach
	void stop() throws Exception {
		this.threads.shutdownNow();
		if (this.proxy != null) {
			this.proxy.close();
		}
		this.clients.forEach(CuratorFramework::close);
	}

	static Stream<Arguments> faults() {
		List<Arguments> faults = new ArrayList<>();
		for (Fault fault : Fault.values()) {
			for (boolean handOff : new boolean[] { true, false }) {
				for (Contention contention : Contention.values()) {
					faults.add(Arguments.of(fault, handOff, contention));
				}
			}
		}
		return faults.stream();
	}

	@ParameterizedTest(name = "{0}, hand-off {1}, {2}")
	@MethodSource("faults")
	void everyWaitEndsWithinItsWaitTime(Fault fault, boolean handOff, Contention contention) throws Exception {
		this.proxy = ReplyHoldingProxy.start(this.zookeeper.connectString());
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client(), "/locks", LostLockPolicy.defaults(),
				handOff ? HandOffPolicy.defaults() : HandOffPolicy.disabled());
		CountDownLatch held = new CountDownLatch(1);
		CountDownLatch release = new CountDownLatch(1);
		Future<?> holder = this.threads.submit(() -> {
			AcquiredLock lock = registry.acquire("key", contention.holderType, contention.permits, WAIT);
			held.countDown();
			release.await();
			lock.release();
			return null;
		});
		assertThat(held.await(10, TimeUnit.SECONDS)).isTrue();
		Future<Duration> waiter = this.threads
			.submit(() -> failureTime(() -> registry.acquire("key", contention.waiterType, contention.permits, WAIT)));
		await().until(() -> !registry.waitingLocks().isEmpty());
		fault.apply(this);
		Future<Duration> newKey = this.threads.submit(
				() -> failureTime(() -> registry.acquire("other", contention.waiterType, contention.permits, WAIT)));
		Future<Duration> zeroWait = this.threads.submit(() -> failureTime(
				() -> registry.acquire("another", contention.waiterType, contention.permits, Duration.ZERO)));
		assertThat(waiter.get(30, TimeUnit.SECONDS)).as("the waiter").isLessThan(WAIT.plus(SLACK));
		assertThat(newKey.get(30, TimeUnit.SECONDS)).as("a new acquisition of another key")
			.isLessThan(WAIT.plus(SLACK));
		assertThat(zeroWait.get(30, TimeUnit.SECONDS)).as("a zero wait").isLessThan(SLACK);
		release.countDown();
		holder.get(10, TimeUnit.SECONDS);
	}

	private CuratorFramework client() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(this.proxy.connectString())
			.sessionTimeoutMs(SESSION_TIMEOUT_MILLIS)
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

	/** What happens to ZooKeeper. */
	enum Fault {

		/** The server dies: its connections close, and new ones are refused. */
		KILLED {
			@Override
			void apply(WaitTimeBoundTests test) throws Exception {
				test.proxy.close();
				test.zookeeper.stop();
			}
		},

		/**
		 * The server stops answering and keeps its connections open, as a paused one
		 * does.
		 */
		FROZEN {
			@Override
			void apply(WaitTimeBoundTests test) {
				test.proxy.holdReplies();
			}
		};

		abstract void apply(WaitTimeBoundTests test) throws Exception;

	}

	/** Who holds the key and who waits for it. */
	enum Contention {

		EXCLUSIVE(LockType.EXCLUSIVE, LockType.EXCLUSIVE, 1),

		READ_BEHIND_WRITE(LockType.WRITE, LockType.READ, 1),

		SEMAPHORE(LockType.SEMAPHORE, LockType.SEMAPHORE, 1);

		private final LockType holderType;

		private final LockType waiterType;

		private final int permits;

		Contention(LockType holderType, LockType waiterType, int permits) {
			this.holderType = holderType;
			this.waiterType = waiterType;
			this.permits = permits;
		}

	}

}
