package dev.zklock.integration;

import java.io.IOException;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.locks.Lock;

import dev.zklock.LockHandle;
import dev.zklock.LockTimeoutException;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.entry;
import static org.awaitility.Awaitility.await;

/**
 * The {@code LockRegistry} contract against a real server, with a second registry on a
 * client of its own in the role of another process.
 */
class ZooKeeperIntegrationLockRegistryTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private ZooKeeperLockRegistry zklock;

	private ZooKeeperLockRegistry otherZklock;

	private ZooKeeperIntegrationLockRegistry registry;

	private ZooKeeperIntegrationLockRegistry otherProcess;

	@BeforeEach
	void connect() throws Exception {
		this.zklock = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		this.otherZklock = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		this.registry = new ZooKeeperIntegrationLockRegistry(this.zklock);
		this.otherProcess = new ZooKeeperIntegrationLockRegistry(this.otherZklock);
	}

	@AfterEach
	void close() {
		this.zklock.close();
		this.otherZklock.close();
	}

	@Test
	void obtainGivesZklocksViewAndEveryViewOfAKeyIsOneReentrantLock() throws Exception {
		ZooKeeperLock lock = this.registry.obtain("views");
		lock.lock();
		assertThat(this.registry.obtain("views").tryLock()).isTrue();
		this.zklock.obtain("views").unlock();
		assertThat(this.otherProcess.obtain("views").tryLock()).isFalse();
		this.registry.obtain("views").unlock();
		assertFreeForOtherProcess("views");
	}

	@Test
	void locksObtainedForAKeyAreEqualSoCollectionsKeepThemOnce() {
		Lock lock = this.registry.obtain("views");
		assertThat(this.registry.obtain("views")).isEqualTo(lock).hasSameHashCodeAs(lock);
		assertThat(this.zklock.obtain("views")).isEqualTo(lock);
		assertThat(this.registry.obtain("other")).isNotEqualTo(lock);
		assertThat(this.otherProcess.obtain("views")).isNotEqualTo(lock);
		Map<Lock, String> owners = new HashMap<>();
		owners.put(lock, "first");
		owners.put(this.registry.obtain("views"), "second");
		assertThat(owners).containsOnly(entry(lock, "second"));
	}

	@Test
	void aKeyIsItsToString() throws Exception {
		this.registry.obtain(42).lock();
		assertThat(this.otherProcess.obtain("42").tryLock()).isFalse();
		this.registry.obtain("42").unlock();
		assertFreeForOtherProcess("42");
	}

	@Test
	void tryLockWaitsAtMostItsTimeForAHolderInAnotherSession() throws Exception {
		ZooKeeperLock held = this.otherProcess.obtain("wait");
		held.lock();
		ZooKeeperLock lock = this.registry.obtain("wait");
		long start = System.nanoTime();
		assertThat(lock.tryLock(300, TimeUnit.MILLISECONDS)).isFalse();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isGreaterThanOrEqualTo(Duration.ofMillis(300));
		CompletableFuture<Boolean> waiter = CompletableFuture.supplyAsync(() -> {
			try {
				boolean acquired = lock.tryLock(10, TimeUnit.SECONDS);
				lock.unlock();
				return acquired;
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
		});
		await().until(() -> !this.zklock.waitingLocks().isEmpty());
		held.unlock();
		assertThat(waiter).succeedsWithin(Duration.ofSeconds(10)).isEqualTo(true);
	}

	@Test
	void executeLockedRunsTheWorkUnderTheLockAndGivesItsFencingToken() throws Exception {
		LockHandle held = this.registry.executeLocked("work", () -> {
			assertThat(this.otherProcess.obtain("work").tryLock()).isFalse();
			return LockHandle.current();
		});
		assertThat(held.key()).isEqualTo("work");
		assertThat(held.isValid()).isFalse();
		ZooKeeperLock next = this.otherProcess.obtain("work");
		assertThat(next.tryLock(5, TimeUnit.SECONDS)).isTrue();
		assertThat(next.handle().fencingToken()).isGreaterThan(held.fencingToken());
		next.unlock();
		AtomicBoolean ran = new AtomicBoolean();
		this.registry.executeLocked("work", Duration.ofSeconds(5), () -> ran.set(true));
		assertThat(ran).isTrue();
	}

	@Test
	void executeLockedWithAWaitTimeEndsWithATimeoutWhileAnotherHolderKeepsTheLock() throws Exception {
		ZooKeeperLock held = this.otherProcess.obtain("busy");
		held.lock();
		AtomicBoolean ran = new AtomicBoolean();
		assertThatExceptionOfType(TimeoutException.class)
			.isThrownBy(() -> this.registry.executeLocked("busy", Duration.ofMillis(200), () -> ran.set(true)))
			.withMessageContaining("'busy'")
			.withCauseInstanceOf(LockTimeoutException.class);
		assertThat(ran).isFalse();
		held.unlock();
		assertThat(this.registry.executeLocked("busy", Duration.ofSeconds(10), () -> "free")).isEqualTo("free");
	}

	@Test
	void executeLockedHandsTheWorksOwnExceptionsBackUnchangedAndReleasesTheLock() throws Exception {
		IOException checked = new IOException("disk full");
		assertThatExceptionOfType(IOException.class).isThrownBy(() -> this.registry.executeLocked("failing", () -> {
			throw checked;
		})).isSameAs(checked);
		IllegalStateException unchecked = new IllegalStateException("broken");
		assertThatExceptionOfType(IllegalStateException.class)
			.isThrownBy(() -> this.registry.executeLocked("failing", Duration.ofSeconds(5), () -> {
				throw unchecked;
			}))
			.isSameAs(unchecked);
		LockTimeoutException nested = new LockTimeoutException("inner", Duration.ZERO);
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> this.registry.executeLocked("failing", Duration.ofSeconds(5), () -> {
				throw nested;
			}))
			.isSameAs(nested);
		assertFreeForOtherProcess("failing");
	}

	@Test
	void executeLockedEndsWithInterruptedExceptionWhenItsWaitIsInterrupted() throws Exception {
		ZooKeeperLock held = this.otherProcess.obtain("interrupted");
		held.lock();
		CompletableFuture<Throwable> failure = new CompletableFuture<>();
		Thread waiter = new Thread(() -> {
			try {
				this.registry.executeLocked("interrupted", () -> failure.completeExceptionally(new AssertionError()));
			}
			catch (InterruptedException ex) {
				failure.complete(Thread.currentThread().isInterrupted() ? new AssertionError("still interrupted") : ex);
			}
		});
		waiter.start();
		await().until(() -> !this.zklock.waitingLocks().isEmpty());
		waiter.interrupt();
		assertThat(failure).succeedsWithin(Duration.ofSeconds(10)).isInstanceOf(InterruptedException.class);
		held.unlock();
		assertThat(this.zklock.keysInUse()).isZero();
	}

	@Test
	void twoRegistriesOnTwoClientsNeverLetTwoHoldersIn() throws Exception {
		AtomicInteger inside = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		AtomicInteger counter = new AtomicInteger();
		ExecutorService executor = Executors.newFixedThreadPool(4);
		try {
			List<CompletableFuture<Void>> work = new ArrayList<>();
			for (int thread = 0; thread < 4; thread++) {
				ZooKeeperIntegrationLockRegistry locks = (thread % 2 == 0) ? this.registry : this.otherProcess;
				boolean throughTheLock = thread < 2;
				work.add(CompletableFuture.runAsync(() -> {
					for (int i = 0; i < 25; i++) {
						Runnable increment = () -> {
							if (inside.incrementAndGet() > 1) {
								overlaps.incrementAndGet();
							}
							int read = counter.get();
							counter.set(read + 1);
							inside.decrementAndGet();
						};
						incrementUnder(locks, throughTheLock, increment);
					}
				}, executor));
			}
			assertThat(CompletableFuture.allOf(work.toArray(CompletableFuture[]::new)))
				.succeedsWithin(Duration.ofSeconds(60));
		}
		finally {
			executor.shutdownNow();
		}
		assertThat(overlaps).hasValue(0);
		assertThat(counter).hasValue(100);
	}

	private static void incrementUnder(ZooKeeperIntegrationLockRegistry locks, boolean throughTheLock,
			Runnable increment) {
		try {
			if (throughTheLock) {
				ZooKeeperLock lock = locks.obtain("counter");
				lock.lockInterruptibly();
				try {
					increment.run();
				}
				finally {
					lock.unlock();
				}
			}
			else {
				locks.executeLocked("counter", Duration.ofSeconds(30), increment::run);
			}
		}
		catch (InterruptedException | TimeoutException ex) {
			throw new IllegalStateException(ex);
		}
	}

	private void assertFreeForOtherProcess(String key) throws InterruptedException {
		ZooKeeperLock lock = this.otherProcess.obtain(key);
		assertThat(lock.tryLock(5, TimeUnit.SECONDS)).isTrue();
		lock.unlock();
	}

}
