package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockType;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Base of the lock hand-off tests: a ZooKeeper server and a client of their own per test,
 * registries of a given {@link HandOffPolicy}, and threads that hold locks.
 */
abstract class AbstractLockHandOffTests {

	static final Duration LONG_WAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	final ExecutorService threads = Executors.newCachedThreadPool();

	CuratorFramework client;

	@BeforeEach
	void connect() throws Exception {
		this.client = this.zookeeper.newClient();
	}

	@AfterEach
	void stopThreads() {
		this.threads.shutdownNow();
	}

	ZooKeeperLockRegistry registry(HandOffPolicy policy) {
		return registry(policy, this.client);
	}

	ZooKeeperLockRegistry registry(HandOffPolicy policy, CuratorFramework client) {
		return new ZooKeeperLockRegistry(client, "/locks", LostLockPolicy.defaults(), policy);
	}

	/**
	 * A lock acquired by a thread of its own, which holds it until told to release it.
	 */
	static final class HeldByThread {

		private final CountDownLatch held = new CountDownLatch(1);

		private final CountDownLatch releaseNow = new CountDownLatch(1);

		private final CompletableFuture<Void> released = new CompletableFuture<>();

		volatile AcquiredLock lock;

		static HeldByThread start(ExecutorService threads, ZooKeeperLockRegistry registry, String key, LockType type)
				throws InterruptedException {
			HeldByThread holder = startWaiting(threads, registry, key, type);
			holder.awaitHeld();
			return holder;
		}

		static HeldByThread startWaiting(ExecutorService threads, ZooKeeperLockRegistry registry, String key,
				LockType type) {
			HeldByThread holder = new HeldByThread();
			threads.submit(() -> {
				try {
					holder.lock = registry.acquire(key, type, 1, LONG_WAIT);
					holder.held.countDown();
					holder.releaseNow.await();
					holder.lock.release();
					holder.released.complete(null);
				}
				catch (Throwable ex) {
					holder.released.completeExceptionally(ex);
				}
				return null;
			});
			return holder;
		}

		void awaitHeld() throws InterruptedException {
			assertThat(this.held.await(10, TimeUnit.SECONDS)).isTrue();
		}

		void release() throws Exception {
			this.releaseNow.countDown();
			this.released.get(10, TimeUnit.SECONDS);
		}

	}

}
