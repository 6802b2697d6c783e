package dev.zklock.zookeeper;

import java.lang.ref.WeakReference;
import java.time.Duration;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.LockHandle;
import dev.zklock.LockTemplate;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The {@link java.util.concurrent.locks.Lock} view against a holder in another session.
 */
class ZooKeeperLockTests {

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private CuratorFramework client;

	private ZooKeeperLockRegistry registry;

	private ZooKeeperLockRegistry otherProcess;

	@BeforeEach
	void connect() throws Exception {
		this.client = this.zookeeper.newClient();
		this.registry = new ZooKeeperLockRegistry(this.client, "/locks");
		this.otherProcess = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
	}

	@Test
	void tryLockTakesAFreeLockAndUnlockGivesItBack() {
		ZooKeeperLock lock = this.registry.obtain("view");
		assertThat(lock.tryLock()).isTrue();
		assertThatExceptionOfType(dev.zklock.LockTimeoutException.class)
			.isThrownBy(() -> this.otherProcess.acquire("view", Duration.ZERO));
		lock.unlock();
		this.otherProcess.acquire("view", Duration.ofSeconds(10)).release();
	}

	@Test
	void tryLockIgnoresAnInterruptAndKeepsItSet() {
		ZooKeeperLock lock = this.registry.obtain("view");
		Thread.currentThread().interrupt();
		try {
			assertThat(lock.tryLock()).as("tryLock() of a free lock by an interrupted thread").isTrue();
			assertThat(Thread.currentThread().isInterrupted()).as("the interrupt, still set").isTrue();
		}
		finally {
			Thread.interrupted();
		}
		lock.unlock();
		AcquiredLock held = this.otherProcess.acquire("view", Duration.ofSeconds(10));
		Thread.currentThread().interrupt();
		try {
			assertThat(lock.tryLock()).as("tryLock() of a held lock by an interrupted thread").isFalse();
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
			held.release();
		}
	}

	@Test
	void tryLockOfAHeldLockAnswersFalseAtOnceOrAfterItsWait() throws Exception {
		AcquiredLock held = this.otherProcess.acquire("view", Duration.ofSeconds(10));
		ZooKeeperLock lock = this.registry.obtain("view");
		assertThat(lock.tryLock()).isFalse();
		long start = System.nanoTime();
		assertThat(lock.tryLock(300, TimeUnit.MILLISECONDS)).isFalse();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		held.release();
		assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
		lock.unlock();
	}

	@Test
	void tryLockWithTheLongestWaitTakesAFreeLock() throws Exception {
		ZooKeeperLock lock = this.registry.obtain("view");
		assertThat(lock.tryLock(Long.MAX_VALUE, TimeUnit.DAYS)).isTrue();
		lock.unlock();
		this.otherProcess.acquire("view", Duration.ofSeconds(10)).release();
	}

	@Test
	void lockWaitsUntilTheOtherHolderReleases() throws Exception {
		AcquiredLock held = this.otherProcess.acquire("view", Duration.ofSeconds(10));
		CompletableFuture.runAsync(() -> {
			await().until(() -> this.client.getChildren().forPath(this.registry.pathOf("view")).size() == 2);
			held.release();
		});
		ZooKeeperLock lock = this.registry.obtain("view");
		lock.lock();
		assertThat(held.isValid()).isFalse();
		lock.unlock();
	}

	@Test
	void lockInterruptiblyEndsWithTheInterruptAndLeavesNoNodeBehind() throws Exception {
		AcquiredLock held = this.otherProcess.acquire("view", Duration.ofSeconds(10));
		ZooKeeperLock lock = this.registry.obtain("view");
		AtomicReference<Throwable> outcome = new AtomicReference<>();
		CountDownLatch done = new CountDownLatch(1);
		Thread waiter = new Thread(() -> {
			try {
				lock.lockInterruptibly();
			}
			catch (Throwable ex) {
				outcome.set(ex);
			}
			done.countDown();
		});
		waiter.start();
		String keyPath = this.registry.pathOf("view");
		await().until(() -> this.client.getChildren().forPath(keyPath).size() == 2);
		waiter.interrupt();
		assertThat(done.await(5, TimeUnit.SECONDS)).isTrue();
		assertThat(outcome.get()).isInstanceOf(InterruptedException.class);
		// the waiter's node is deleted in the background
		await().atMost(Duration.ofSeconds(5))
			.untilAsserted(() -> assertThat(this.client.getChildren().forPath(keyPath)).hasSize(1));
		held.release();
	}

	@Test
	void viewAndTemplateShareTheThreadsHold() {
		LockTemplate template = new LockTemplate(this.registry, Duration.ofSeconds(5));
		ZooKeeperLock lock = this.registry.obtain("shared");
		long token = template.execute("shared", (held) -> {
			assertThat(lock.tryLock()).isTrue();
			lock.unlock();
			return held.fencingToken();
		});
		assertThat(lock.tryLock()).isTrue();
		String inner = template.execute("shared", Duration.ZERO,
				(held) -> "reentered " + (held.fencingToken() > token));
		assertThat(inner).isEqualTo("reentered true");
		lock.unlock();
	}

	@Test
	void failedTryLockKeepsNoHoldOfTheThread() throws Exception {
		AcquiredLock held = this.otherProcess.acquire("view", Duration.ofSeconds(10));
		ZooKeeperLock lock = this.registry.obtain("view");
		AtomicBoolean acquired = new AtomicBoolean(true);
		WeakReference<Thread> trier = runOnItsOwnThread(() -> acquired.set(lock.tryLock()));
		assertThat(acquired).isFalse();
		await().atMost(Duration.ofSeconds(10)).until(() -> {
			System.gc();
			return trier.get() == null;
		});
		held.release();
	}

	@Test
	void viewsOfTheSameKeyAreOneLock() throws Exception {
		ZooKeeperLock locked = this.registry.obtain("view");
		ZooKeeperLock unlocked = this.registry.obtain("view");
		locked.lock();
		unlocked.unlock();
		assertFreeForOtherProcess("view");
		assertThat(this.registry.keysInUse()).isZero();
	}

	@Test
	void viewsOfAKeyFromOneRegistryAreEqualAndViewsOfOtherKeysOrRegistriesAreNot() {
		ZooKeeperLock view = this.registry.obtain("view");
		assertThat(this.registry.obtain("view")).isEqualTo(view).hasSameHashCodeAs(view);
		assertThat(this.registry.obtain("other")).isNotEqualTo(view);
		assertThat(this.otherProcess.obtain("view")).isNotEqualTo(view);
		assertThat(new HashSet<>(List.of(view, this.registry.obtain("view"), this.registry.obtain("other"))))
			.hasSize(2);
		assertThat(Map.of(view, "held").get(this.registry.obtain("view"))).isEqualTo("held");
		assertThat(view).hasToString("ZooKeeperLock[key=view]");
	}

	@Test
	void reentrantAcquisitionsOfOneViewAreReleasedThroughAnother() throws Exception {
		ZooKeeperLock locked = this.registry.obtain("view");
		ZooKeeperLock unlocked = this.registry.obtain("view");
		locked.lock();
		locked.lock();
		unlocked.unlock();
		assertThat(this.otherProcess.obtain("view").tryLock()).isFalse();
		unlocked.unlock();
		assertFreeForOtherProcess("view");
		assertThat(this.registry.keysInUse()).isZero();
	}

	@Test
	void unlockThroughAnotherViewByAnotherThreadIsRefused() throws Exception {
		ZooKeeperLock locked = this.registry.obtain("view");
		ZooKeeperLock unlocked = this.registry.obtain("view");
		locked.lock();
		CompletableFuture<Void> otherThread = CompletableFuture.runAsync(unlocked::unlock);
		assertThat(otherThread).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(ExecutionException.class)
			.withCauseInstanceOf(IllegalMonitorStateException.class)
			.withMessageContaining("'view'");
		assertThat(this.otherProcess.obtain("view").tryLock()).isFalse();
		unlocked.unlock();
		assertFreeForOtherProcess("view");
		assertThat(this.registry.keysInUse()).isZero();
	}

	@Test
	void handleDescribesTheHoldingThreadsOutermostAcquisitionThroughAnyView() throws Exception {
		ZooKeeperLock lock = this.registry.obtain("view");
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::handle)
			.withMessageContaining("'view'");
		lock.lock();
		LockHandle handle = this.registry.obtain("view").handle();
		lock.lock();
		assertThat(lock.handle()).isSameAs(handle);
		assertThat(CompletableFuture.supplyAsync(lock::handle)).failsWithin(Duration.ofSeconds(5))
			.withThrowableOfType(ExecutionException.class)
			.withCauseInstanceOf(IllegalMonitorStateException.class);
		lock.unlock();
		assertThat(handle.key()).isEqualTo("view");
		assertThat(CompletableFuture.supplyAsync(handle::isValid)).succeedsWithin(Duration.ofSeconds(5))
			.isEqualTo(true);
		lock.unlock();
		assertThat(handle.isValid()).isFalse();
		ZooKeeperLock next = this.otherProcess.obtain("view");
		assertThat(next.tryLock(5, TimeUnit.SECONDS)).isTrue();
		assertThat(next.handle().fencingToken()).isGreaterThan(handle.fencingToken());
		next.unlock();
	}

	@Test
	void unlockWithoutHoldingAndConditionsAreRefused() {
		ZooKeeperLock lock = this.registry.obtain("view");
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
			.withMessageContaining("'view'");
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(lock::newCondition)
			.withMessageContaining("distributed lock, which has no conditions");
	}

	private void assertFreeForOtherProcess(String key) throws InterruptedException {
		ZooKeeperLock lock = this.otherProcess.obtain(key);
		assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
		lock.unlock();
	}

	private static WeakReference<Thread> runOnItsOwnThread(Runnable task) throws InterruptedException {
		Thread thread = new Thread(task);
		thread.start();
		thread.join();
		return new WeakReference<>(thread);
	}

}
