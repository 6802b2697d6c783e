package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.recipes.locks.InterProcessMutex;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.awaitility.Awaitility.await;

/**
 * Read/write locks and semaphores across three ZooKeeper sessions, as three processes
 * would hold them.
 */
class LockTypesTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final List<ZooKeeperLockRegistry> sessions = new ArrayList<>();

	@BeforeEach
	void connect() throws Exception {
		for (int i = 0; i < 3; i++) {
			this.sessions.add(new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks"));
		}
	}

	@Test
	void readersOfAllSessionsHoldTogether() {
		List<AcquiredLock> readers = new ArrayList<>();
		for (ZooKeeperLockRegistry session : this.sessions) {
			readers.add(session.acquire("catalog", LockType.READ, 1, Duration.ofSeconds(10)));
		}
		assertThat(readers).allMatch(AcquiredLock::isValid);
		assertThat(readers).extracting(AcquiredLock::fencingToken).doesNotHaveDuplicates();
		readers.forEach(AcquiredLock::release);
	}

	@Test
	void aWriterIsAlone() {
		AcquiredLock reader = session(0).acquire("catalog", LockType.READ, 1, Duration.ofSeconds(10));
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> session(1).acquire("catalog", LockType.WRITE, 1, Duration.ZERO));
		reader.release();
		AcquiredLock writer = session(1).acquire("catalog", LockType.WRITE, 1, Duration.ofSeconds(10));
		assertThat(writer.fencingToken()).isGreaterThan(reader.fencingToken());
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> session(0).acquire("catalog", LockType.READ, 1, Duration.ZERO));
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> session(2).acquire("catalog", LockType.WRITE, 1, Duration.ZERO));
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> session(2).acquire("catalog", LockType.EXCLUSIVE, 1, Duration.ZERO));
		writer.release();
	}

	@Test
	void readersQueuedBehindAWaitingWriterWaitForIt() throws Exception {
		AcquiredLock firstReader = session(0).acquire("catalog", LockType.READ, 1, Duration.ofSeconds(10));
		CompletableFuture<AcquiredLock> writer = CompletableFuture
			.supplyAsync(() -> session(1).acquire("catalog", LockType.WRITE, 1, WAIT));
		awaitQueueLength("catalog", 2);
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> session(2).acquire("catalog", LockType.READ, 1, Duration.ofMillis(200)));
		firstReader.release();
		AcquiredLock writing = writer.get(10, TimeUnit.SECONDS);
		assertThat(writing.isValid()).isTrue();
		writing.release();
	}

	@Test
	void concurrentReadersReallyOverlapAndWritersAreReallyAlone() throws Exception {
		AtomicInteger readers = new AtomicInteger();
		AtomicInteger writers = new AtomicInteger();
		AtomicInteger mostReadersAtOnce = new AtomicInteger();
		List<String> violations = new ArrayList<>();
		ExecutorService threads = Executors.newFixedThreadPool(6);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int t = 0; t < 6; t++) {
				ZooKeeperLockRegistry session = session(t % 3);
				boolean writer = t == 0;
				work.add(threads.submit(() -> {
					for (int i = 0; i < 15; i++) {
						AcquiredLock lock = session.acquire("shelf", writer ? LockType.WRITE : LockType.READ, 1, WAIT);
						try {
							if (writer) {
								if (writers.incrementAndGet() != 1 || readers.get() != 0) {
									violations.add("writer not alone");
								}
								// holds a while, so that a reader beside it shows
								Thread.sleep(5);
								writers.decrementAndGet();
							}
							else {
								mostReadersAtOnce.accumulateAndGet(readers.incrementAndGet(), Math::max);
								if (writers.get() != 0) {
									violations.add("reader beside a writer");
								}
								// holds a while, so that the other readers join it
								Thread.sleep(20);
								readers.decrementAndGet();
							}
						}
						finally {
							lock.release();
						}
					}
					return null;
				}));
			}
			for (Future<?> future : work) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(violations).isEmpty();
		assertThat(mostReadersAtOnce.get()).isGreaterThan(1);
	}

	@Test
	void aWriterMayAlsoReadAndTheLockStaysExclusiveUntilItsLastHoldEnds() {
		AcquiredLock writer = session(0).acquire("ledger", LockType.WRITE, 1, Duration.ofSeconds(10));
		AcquiredLock downgraded = session(0).acquire("ledger", LockType.READ, 1, Duration.ofSeconds(10));
		assertThat(downgraded.fencingToken()).isEqualTo(writer.fencingToken());
		writer.release();
		assertThat(downgraded.isValid()).isTrue();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> session(1).acquire("ledger", LockType.WRITE, 1, Duration.ZERO));
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> session(1).acquire("ledger", LockType.READ, 1, Duration.ZERO));
		downgraded.release();
		session(1).acquire("ledger", LockType.WRITE, 1, Duration.ofSeconds(10)).release();
	}

	@Test
	void aReaderAskingToWriteIsRefusedInsteadOfDeadlocking() throws Exception {
		AcquiredLock reader = session(0).acquire("ledger", LockType.READ, 1, Duration.ofSeconds(10));
		assertThatIllegalStateException()
			.isThrownBy(() -> session(0).acquire("ledger", LockType.WRITE, 1, Duration.ofSeconds(5)))
			.withMessageContaining("holds the read lock of 'ledger'")
			.withMessageContaining("release the read lock first");
		assertThat(reader.isValid()).isTrue();
		assertThat(queue("ledger")).hasSize(1);
		reader.release();
		assertThat(session(0).keysInUse()).isZero();
	}

	@Test
	void readersOfOneThreadReenter() {
		AcquiredLock outer = session(0).acquire("ledger", LockType.READ, 1, Duration.ofSeconds(10));
		AcquiredLock inner = session(0).acquire("ledger", LockType.READ, 1, Duration.ofSeconds(10));
		assertThat(inner.fencingToken()).isEqualTo(outer.fencingToken());
		inner.release();
		assertThat(outer.isValid()).isTrue();
		outer.release();
	}

	@Test
	void aSemaphoreNeverAdmitsMoreThanItsPermits() throws Exception {
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger mostAtOnce = new AtomicInteger();
		ExecutorService threads = Executors.newFixedThreadPool(6);
		try {
			List<Future<?>> work = new ArrayList<>();
			for (int t = 0; t < 6; t++) {
				ZooKeeperLockRegistry session = session(t % 3);
				work.add(threads.submit(() -> {
					for (int i = 0; i < 10; i++) {
						AcquiredLock permit = session.acquire("exports", LockType.SEMAPHORE, 2, WAIT);
						try {
							mostAtOnce.accumulateAndGet(holders.incrementAndGet(), Math::max);
							// holds a while, so that the permits are all taken at once
							Thread.sleep(10);
							holders.decrementAndGet();
						}
						finally {
							permit.release();
						}
					}
					return null;
				}));
			}
			for (Future<?> future : work) {
				future.get(60, TimeUnit.SECONDS);
			}
		}
		finally {
			threads.shutdownNow();
		}
		assertThat(mostAtOnce.get()).isEqualTo(2);
	}

	@Test
	void aSemaphoreAdmitsTheNextWaiterWhenAPermitIsReturned() throws Exception {
		AcquiredLock first = session(0).acquire("exports", LockType.SEMAPHORE, 2, Duration.ofSeconds(10));
		AcquiredLock second = session(1).acquire("exports", LockType.SEMAPHORE, 2, Duration.ofSeconds(10));
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> session(2).acquire("exports", LockType.SEMAPHORE, 2, Duration.ofMillis(200)));
		CompletableFuture<AcquiredLock> third = CompletableFuture
			.supplyAsync(() -> session(2).acquire("exports", LockType.SEMAPHORE, 2, WAIT));
		awaitQueueLength("exports", 3);
		first.release();
		AcquiredLock admitted = third.get(10, TimeUnit.SECONDS);
		assertThat(admitted.fencingToken()).isGreaterThan(second.fencingToken());
		admitted.release();
		second.release();
	}

	@Test
	void aPermitReturnedByAnyHolderAdmitsTheNextWaiter() throws Exception {
		AcquiredLock first = session(0).acquire("exports", LockType.SEMAPHORE, 2, Duration.ofSeconds(10));
		AcquiredLock second = session(1).acquire("exports", LockType.SEMAPHORE, 2, Duration.ofSeconds(10));
		CompletableFuture<AcquiredLock> third = CompletableFuture
			.supplyAsync(() -> session(2).acquire("exports", LockType.SEMAPHORE, 2, WAIT));
		awaitQueueLength("exports", 3);
		second.release();
		AcquiredLock admitted = third.get(WAIT.plusSeconds(10).toSeconds(), TimeUnit.SECONDS);
		admitted.release();
		first.release();
	}

	/**
	 * Each acquisition of a semaphore takes a permit of its own, also by a thread that
	 * holds one already: permits are counted by nodes, and never re-enter a hold
	 * ({@code LockKey.sharesHolds}).
	 */
	@Test
	void eachAcquisitionOfASemaphoreByOneThreadTakesAPermitOfItsOwn() {
		AcquiredLock first = session(0).acquire("exports", LockType.SEMAPHORE, 2, Duration.ofSeconds(10));
		AcquiredLock second = session(0).acquire("exports", LockType.SEMAPHORE, 2, Duration.ofSeconds(10));
		assertThat(second.fencingToken()).isNotEqualTo(first.fencingToken());
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> session(1).acquire("exports", LockType.SEMAPHORE, 2, Duration.ZERO));
		second.release();
		first.release();
	}

	@Test
	void permitCountsThatDisagreeAreReported() {
		AcquiredLock permit = session(0).acquire("exports", LockType.SEMAPHORE, 2, Duration.ofSeconds(10));
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> session(1).acquire("exports", LockType.SEMAPHORE, 3, Duration.ZERO))
			.withMessageContaining("'exports'")
			.withMessageContaining("a semaphore of 3 permits here")
			.withMessageContaining("other holders use it as a semaphore of 2 permits");
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> session(1).acquire("exports", LockType.EXCLUSIVE, 1, Duration.ZERO))
			.withMessageContaining("an exclusive lock here");
		permit.release();
		assertThat(session(1).keysInUse()).isZero();
	}

	@Test
	void exclusiveLocksExcludePlainCuratorMutexesOnTheSamePath() throws Exception {
		CuratorFramework curatorUser = this.zookeeper.newClient();
		InterProcessMutex mutex = new InterProcessMutex(curatorUser, session(0).pathOf("shared"));
		AcquiredLock ours = session(0).acquire("shared", Duration.ofSeconds(10));
		assertThat(mutex.acquire(200, TimeUnit.MILLISECONDS)).isFalse();
		ours.release();
		assertThat(mutex.acquire(5, TimeUnit.SECONDS)).isTrue();
		assertThatExceptionOfType(LockTimeoutException.class)
			.isThrownBy(() -> session(1).acquire("shared", Duration.ofMillis(200)));
		mutex.release();
		session(1).acquire("shared", Duration.ofSeconds(10)).release();
	}

	private ZooKeeperLockRegistry session(int index) {
		return this.sessions.get(index);
	}

	private List<String> queue(String key) throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		return client.getChildren().forPath(session(0).pathOf(key));
	}

	private void awaitQueueLength(String key, int length) throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		await().until(() -> client.getChildren().forPath(session(0).pathOf(key)).size() >= length);
	}

}
