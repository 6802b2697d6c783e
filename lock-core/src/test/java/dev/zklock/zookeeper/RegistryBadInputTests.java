package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.EnumSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

import dev.zklock.LockType;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.Timeout.ThreadMode;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Bad arguments to the public methods of {@link ZooKeeperLockRegistry}, its
 * {@link AcquiredLock}s, its {@link java.util.concurrent.locks.Lock} view and its
 * policies: each gets an exception of the documented type whose message names the
 * argument at fault, and no lock is left held: another client takes the key at once
 * afterwards.
 */
@Timeout(value = 30, threadMode = ThreadMode.SEPARATE_THREAD)
class RegistryBadInputTests {

	private static final String KEY = "fuzz";

	private static final Duration SECOND = Duration.ofSeconds(1);

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static CuratorFramework client;

	private static ZooKeeperLockRegistry registry;

	private static ZooKeeperLockRegistry otherProcess;

	@BeforeAll
	static void connect() throws Exception {
		client = zookeeper.newClient();
		registry = new ZooKeeperLockRegistry(client, "/locks");
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	@AfterEach
	void nothingIsLeftHeld() {
		assertThat(registry.heldLocks()).isEmpty();
		assertThat(registry.keysInUse()).isZero();
		otherProcess.acquire(KEY, Duration.ofSeconds(10)).release();
	}

	static Stream<Arguments> registryCalls() {
		return Stream.of(
				illegal("new registry(null client, ...)", () -> new ZooKeeperLockRegistry(null, "/locks"), "'client'"),
				illegal("new registry(..., null root)", () -> new ZooKeeperLockRegistry(client, null),
						"Lock root path"),
				illegal("new registry(..., null lost-lock policy)",
						() -> new ZooKeeperLockRegistry(client, "/locks", null), "'lostLockPolicy'"),
				illegal("new registry(..., null hand-off policy)",
						() -> new ZooKeeperLockRegistry(client, "/locks", LostLockPolicy.defaults(), null),
						"'handOffPolicy'"),
				illegal("obtain(null)", () -> registry.obtain(null), "Lock key"),
				illegal("obtain(\"\")", () -> registry.obtain(""), "Lock key"),
				illegal("obtain(\" \")", () -> registry.obtain(" "), "Lock key"),
				illegal("acquire(null, 1s)", () -> registry.acquire(null, SECOND), "Lock key"),
				illegal("acquire(\"\", 1s)", () -> registry.acquire("", SECOND), "Lock key"),
				illegal("acquire(\" \\t\", 0)", () -> registry.acquire(" \t", Duration.ZERO), "Lock key"),
				illegal("acquire(key, null)", () -> registry.acquire(KEY, null), "'waitTime'"),
				illegal("acquire(key, -1ns)", () -> registry.acquire(KEY, Duration.ofNanos(-1)),
						"Wait time must not be negative"),
				illegal("acquire(key, most negative duration)",
						() -> registry.acquire(KEY, Duration.ofSeconds(Long.MIN_VALUE)),
						"Wait time must not be negative"),
				illegal("acquire(key, null type, 1, 1s)", () -> registry.acquire(KEY, null, 1, SECOND), "'type'"),
				illegal("acquire(key, SEMAPHORE, 0, 1s)", () -> registry.acquire(KEY, LockType.SEMAPHORE, 0, SECOND),
						"Permits must be at least 1"),
				illegal("acquire(key, SEMAPHORE, MIN_VALUE, 1s)",
						() -> registry.acquire(KEY, LockType.SEMAPHORE, Integer.MIN_VALUE, SECOND),
						"Permits must be at least 1"),
				illegal("acquire(key, READ, 3, 1s)", () -> registry.acquire(KEY, LockType.READ, 3, SECOND),
						"Permits apply to semaphores only"),
				illegal("acquire(key, EXCLUSIVE, 1, null)", () -> registry.acquire(KEY, LockType.EXCLUSIVE, 1, null),
						"'waitTime'"),
				illegal("acquireDetached(null, ...)",
						() -> registry.acquireDetached(null, LockType.EXCLUSIVE, 1, SECOND), "Lock key"),
				illegal("acquireDetached(key, null type, ...)", () -> registry.acquireDetached(KEY, null, 1, SECOND),
						"'type'"),
				illegal("acquireDetached(key, WRITE, 0, ...)",
						() -> registry.acquireDetached(KEY, LockType.WRITE, 0, SECOND), "Permits"),
				illegal("acquireDetached(key, ..., null)",
						() -> registry.acquireDetached(KEY, LockType.EXCLUSIVE, 1, null), "'waitTime'"),
				illegal("acquireDetached(key, ..., -1ms)",
						() -> registry.acquireDetached(KEY, LockType.READ, 1, Duration.ofMillis(-1)),
						"Wait time must not be negative"),
				illegal("pathOf(null)", () -> registry.pathOf(null), "Lock key"),
				illegal("pathOf(\"\")", () -> registry.pathOf(""), "Lock key"),
				illegal("queueOf(null)", () -> registry.queueOf(null), "Lock key"),
				illegal("queueOf(\"\")", () -> registry.queueOf(""), "Lock key"),
				illegal("new HandOffPolicy(true, -1, 50ms)", () -> new HandOffPolicy(true, -1, Duration.ofMillis(50)),
						"hand-offs in a row"),
				illegal("new HandOffPolicy(true, 4096, 50ms)",
						() -> new HandOffPolicy(true, HandOffPolicy.MAX_HAND_OFFS + 1, Duration.ofMillis(50)),
						"hand-offs in a row"),
				illegal("new HandOffPolicy(true, 64, null)", () -> new HandOffPolicy(true, 64, null), "'maxTime'"),
				illegal("new HandOffPolicy(true, 64, -1ns)", () -> new HandOffPolicy(true, 64, Duration.ofNanos(-1)),
						"'maxTime'"),
				illegal("new LostLockPolicy(null, ...)",
						() -> new LostLockPolicy(null, EnumSet.noneOf(LostLockPolicy.Action.class)), "'trigger'"),
				illegal("new LostLockPolicy(..., null)", () -> new LostLockPolicy(LostLockPolicy.Trigger.LOST, null),
						"'actions'"));
	}

	@ParameterizedTest
	@MethodSource
	void registryCalls(Call call, Class<? extends Throwable> type, String culprit) {
		assertThatExceptionOfType(type).isThrownBy(() -> {
			if (call.call() instanceof AcquiredLock acquired) {
				acquired.release();
			}
		}).withMessageContaining(culprit);
	}

	@ParameterizedTest
	@ValueSource(strings = { "", "locks", "/", "/locks/", "//locks", "/a//b", "/a/./b", "/a/../b", "/lo\u0000cks",
			"/lo\u0001cks", "/lo\u007Fcks", "/lo\uD800cks", "/lo\uFFFFcks" })
	void rootPathsThatAreNoZooKeeperPathBelowTheRootAreRefusedNamingThePath(String rootPath) {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> new ZooKeeperLockRegistry(client, rootPath))
			.withMessageContaining("Lock root path");
	}

	@Test
	void releaseAfterWithoutADelayIsRefusedAndTheLockCanStillBeReleased() {
		AcquiredLock lock = registry.acquire(KEY, Duration.ofSeconds(10));
		assertThatExceptionOfType(IllegalArgumentException.class).isThrownBy(() -> lock.releaseAfter(null))
			.withMessageContaining("'delay'");
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> lock.releaseAfter(Duration.ofMillis(-1)))
			.withMessageContaining("'delay'");
		assertThat(lock.isValid()).isTrue();
		lock.release();
	}

	@Test
	void releasingTwiceDoesNothingTheSecondTime() {
		AcquiredLock lock = registry.acquire(KEY, Duration.ofSeconds(10));
		lock.release();
		otherProcess.acquire(KEY, Duration.ofSeconds(10)).release();
		lock.release();
		assertThat(lock.releaseAfter(SECOND).toCompletableFuture()).isDone();
	}

	@Test
	void tryLockWithoutATimeUnitIsRefusedNamingIt() {
		assertThatExceptionOfType(IllegalArgumentException.class)
			.isThrownBy(() -> registry.obtain(KEY).tryLock(1, null))
			.withMessageContaining("'unit'");
	}

	@ParameterizedTest
	@ValueSource(longs = { -1, 0, Long.MIN_VALUE })
	void tryLockWithANonPositiveTimeTriesOnce(long time) throws Exception {
		ZooKeeperLock lock = registry.obtain(KEY);
		assertThat(lock.tryLock(time, TimeUnit.DAYS)).isTrue();
		lock.unlock();
		AcquiredLock held = otherProcess.acquire(KEY, Duration.ofSeconds(10));
		try {
			assertThat(lock.tryLock(time, TimeUnit.NANOSECONDS)).isFalse();
		}
		finally {
			held.release();
		}
	}

	@Test
	void tryLockWithTheLongestTimeOfEveryUnitTakesAFreeLock() throws Exception {
		for (TimeUnit unit : TimeUnit.values()) {
			ZooKeeperLock lock = registry.obtain(KEY);
			assertThat(lock.tryLock(Long.MAX_VALUE, unit)).isTrue();
			lock.unlock();
		}
	}

	@Test
	void unlockWithoutHoldingOrOnceTooOftenIsAnIllegalMonitorState() throws Exception {
		ZooKeeperLock lock = registry.obtain(KEY);
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
			.withMessageContaining("'" + KEY + "'");
		assertThat(lock.tryLock(1, TimeUnit.SECONDS)).isTrue();
		lock.unlock();
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
			.withMessageContaining("'" + KEY + "'");
	}

	@Test
	void newConditionIsUnsupportedNamingTheKey() {
		assertThatExceptionOfType(UnsupportedOperationException.class)
			.isThrownBy(() -> registry.obtain(KEY).newCondition())
			.withMessageContaining("'" + KEY + "'");
	}

	@Test
	void messagesAboutAHugeKeyStayShort() {
		String huge = KEY + "x".repeat(1024 * 1024);
		ZooKeeperLock lock = registry.obtain(huge);
		assertThatExceptionOfType(IllegalMonitorStateException.class).isThrownBy(lock::unlock)
			.withMessageContaining("(" + huge.length() + " characters)")
			.satisfies((ex) -> assertThat(ex.getMessage()).hasSizeLessThan(300));
		assertThatExceptionOfType(UnsupportedOperationException.class).isThrownBy(lock::newCondition)
			.satisfies((ex) -> assertThat(ex.getMessage()).hasSizeLessThan(400));
	}

	@Test
	void keysThatLookAlikeAreDifferentLocks() {
		String[][] pairs = { { "a/b", "a%2Fb" }, { ".", "%2E" }, { "..", "%2E%2E" }, { "\uD800", "%uD800" },
				{ "A", "a" }, { "\u00E9", "e\u0301" }, { "k ", "k" }, { "k\u0000", "k" },
				{ "x".repeat(200) + "1", "x".repeat(200) + "2" } };
		for (String[] pair : pairs) {
			AcquiredLock first = registry.acquire(pair[0], Duration.ofSeconds(10));
			try {
				assertThat(registry.pathOf(pair[0])).isNotEqualTo(registry.pathOf(pair[1]))
					.startsWith("/locks/")
					.satisfies((path) -> assertThat(path.lastIndexOf('/')).isEqualTo("/locks".length()));
				otherProcess.acquire(pair[1], Duration.ofSeconds(10)).release();
			}
			finally {
				first.release();
			}
		}
	}

	private static Arguments illegal(String call, Call callable, String culprit) {
		return Arguments.of(Named.of(call, callable), IllegalArgumentException.class, culprit);
	}

	/**
	 * A call that should fail, and returns what it made if it does not: a lock taken by
	 * mistake is released again, so that it does not fail the cases after it.
	 */
	@FunctionalInterface
	interface Call {

		Object call() throws Throwable;

	}

}
