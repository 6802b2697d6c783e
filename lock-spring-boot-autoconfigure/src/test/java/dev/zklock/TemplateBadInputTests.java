package dev.zklock;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Stream;

import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Bad arguments to every public method of {@link LockTemplate}, {@link LockRequest} and
 * the handles of held locks: each gets an exception of the documented type whose message
 * names the argument at fault, the callback never runs, and no lock is left held: another
 * client takes the keys at once afterwards.
 */
class TemplateBadInputTests {

	private static final String KEY = "fuzz";

	private static final String OTHER_KEY = "fuzz:b";

	private static final Duration SECOND = Duration.ofSeconds(1);

	private static final AtomicInteger callbacks = new AtomicInteger();

	private static final LockCallback<String> NEVER = (lock) -> "ran " + callbacks.incrementAndGet();

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static ZooKeeperLockRegistry registry;

	private static LockTemplate template;

	private static ZooKeeperLockRegistry otherProcess;

	@BeforeAll
	static void connect() throws Exception {
		registry = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		template = new LockTemplate(registry, SECOND);
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	@AfterEach
	void nothingIsLeftHeld() {
		assertThat(callbacks).hasValue(0);
		assertThat(registry.heldLocks()).isEmpty();
		assertThat(registry.keysInUse()).isZero();
		otherProcess.acquire(KEY, Duration.ofSeconds(10)).release();
		otherProcess.acquire(OTHER_KEY, Duration.ofSeconds(10)).release();
	}

	static Stream<Arguments> templateCalls() {
		return Stream.of(illegal("new LockTemplate(null, 1s)", () -> new LockTemplate(null, SECOND), "'lockManager'"),
				illegal("new LockTemplate(registry, null)", () -> new LockTemplate(registry, null), "'waitTime'"),
				illegal("new LockTemplate(registry, -1ns)", () -> new LockTemplate(registry, Duration.ofNanos(-1)),
						"Wait time must not be negative"),
				illegal("setObservationRegistry(null)", () -> template.setObservationRegistry(null),
						"'observationRegistry'"),
				illegal("execute(null, callback)", () -> template.execute((String) null, NEVER), "Lock key"),
				illegal("execute(\"\", callback)", () -> template.execute("", NEVER), "Lock key"),
				illegal("execute(\" \\t\\n\", callback)", () -> template.execute(" \t\n", NEVER), "Lock key"),
				illegal("execute(key, null)", () -> template.execute(KEY, (LockCallback<String>) null), "'callback'"),
				illegal("execute(key, null, callback)", () -> template.execute(KEY, (Duration) null, NEVER),
						"'waitTime'"),
				illegal("execute(key, -1ns, callback)", () -> template.execute(KEY, Duration.ofNanos(-1), NEVER),
						"Wait time must not be negative"),
				illegal("execute(key, most negative duration, callback)",
						() -> template.execute(KEY, Duration.ofSeconds(Long.MIN_VALUE), NEVER),
						"Wait time must not be negative"),
				illegal("execute(key, 1s, null)", () -> template.execute(KEY, SECOND, null), "'callback'"),
				illegal("execute(null request, callback)", () -> template.execute((LockRequest) null, NEVER),
						"'request'"),
				illegal("execute(request, null)", () -> template.execute(LockRequest.exclusive(KEY), null),
						"'callback'"),
				illegal("execute(null keys, ...)",
						() -> template.execute((List<String>) null, LockType.EXCLUSIVE, SECOND, NEVER), "keys"),
				illegal("execute(no keys, ...)", () -> template.execute(List.of(), LockType.EXCLUSIVE, SECOND, NEVER),
						"keys"),
				illegal("execute(keys with null, ...)",
						() -> template.execute(Arrays.asList(KEY, null), LockType.EXCLUSIVE, SECOND, NEVER), "keys"),
				illegal("execute(keys with a blank one, ...)",
						() -> template.execute(List.of(KEY, " "), LockType.EXCLUSIVE, SECOND, NEVER), "keys"),
				illegal("execute(keys, null type, ...)",
						() -> template.execute(List.of(KEY, OTHER_KEY), null, SECOND, NEVER), "'type'"),
				illegal("execute(keys, SEMAPHORE, ...)",
						() -> template.execute(List.of(KEY, OTHER_KEY), LockType.SEMAPHORE, SECOND, NEVER),
						"semaphore"),
				illegal("execute(keys, type, null wait, ...)",
						() -> template.execute(List.of(KEY, OTHER_KEY), LockType.READ, null, NEVER), "'waitTime'"),
				illegal("execute(keys, type, -1s, ...)",
						() -> template.execute(List.of(KEY, OTHER_KEY), LockType.WRITE, Duration.ofSeconds(-1), NEVER),
						"Wait time must not be negative"),
				illegal("execute(keys, type, wait, null)",
						() -> template.execute(List.of(KEY, OTHER_KEY), LockType.EXCLUSIVE, SECOND, null),
						"'callback'"),
				illegal("execute(null name, keys, ...)",
						() -> template.execute(null, List.of(KEY, OTHER_KEY), LockType.EXCLUSIVE, SECOND, NEVER),
						"'name'"),
				illegal("execute(blank name, keys, ...)",
						() -> template.execute(" ", List.of(KEY, OTHER_KEY), LockType.EXCLUSIVE, SECOND, NEVER),
						"'name'"),
				illegal("executeAsync(null, callback)",
						() -> template.executeAsync(null, (lock) -> CompletableFuture.completedFuture("never")),
						"'request'"),
				illegal("executeAsync(request, null)", () -> template.executeAsync(LockRequest.exclusive(KEY), null),
						"'callback'"),
				failure("executeAsync(request, callback returning null)", IllegalStateException.class,
						() -> template.executeAsync(LockRequest.exclusive(KEY), (lock) -> null),
						"returned no CompletionStage"));
	}

	@ParameterizedTest
	@MethodSource
	void templateCalls(ThrowingCallable call, Class<? extends Throwable> type, String culprit) {
		assertThatExceptionOfType(type).isThrownBy(call).withMessageContaining(culprit);
	}

	static Stream<Arguments> requests() {
		return Stream.of(
				illegal("new LockRequest(null key, ...)",
						() -> new LockRequest(null, LockType.EXCLUSIVE, 1, null, Duration.ZERO), "Lock key"),
				illegal("exclusive(\"\")", () -> LockRequest.exclusive(""), "Lock key"),
				illegal("read(\" \")", () -> LockRequest.read(" "), "Lock key"),
				illegal("write(\"\\t\\n\")", () -> LockRequest.write("\t\n"), "Lock key"),
				illegal("semaphore(null, 2)", () -> LockRequest.semaphore(null, 2), "Lock key"),
				illegal("new LockRequest(key, null type, ...)",
						() -> new LockRequest(KEY, null, 1, null, Duration.ZERO), "'type'"),
				illegal("semaphore(key, 0)", () -> LockRequest.semaphore(KEY, 0), "Permits must be at least 1"),
				illegal("semaphore(key, -1)", () -> LockRequest.semaphore(KEY, -1), "Permits must be at least 1"),
				illegal("semaphore(key, MIN_VALUE)", () -> LockRequest.semaphore(KEY, Integer.MIN_VALUE),
						"Permits must be at least 1"),
				illegal("new LockRequest(key, EXCLUSIVE, 2, ...)",
						() -> new LockRequest(KEY, LockType.EXCLUSIVE, 2, null, Duration.ZERO),
						"Permits apply to semaphores only"),
				illegal("new LockRequest(key, READ, MAX_VALUE, ...)",
						() -> new LockRequest(KEY, LockType.READ, Integer.MAX_VALUE, null, Duration.ZERO),
						"Permits apply to semaphores only"),
				illegal("new LockRequest(..., -1ns wait, ...)",
						() -> new LockRequest(KEY, LockType.EXCLUSIVE, 1, Duration.ofNanos(-1), Duration.ZERO),
						"Wait time must not be negative"),
				illegal("new LockRequest(..., null holdAtLeast)",
						() -> new LockRequest(KEY, LockType.EXCLUSIVE, 1, null, null), "Hold-at-least time"),
				illegal("new LockRequest(..., blank name)",
						() -> new LockRequest(KEY, LockType.EXCLUSIVE, 1, null, Duration.ZERO, " "), "Lock name"),
				illegal("withWaitTime(null)", () -> LockRequest.exclusive(KEY).withWaitTime(null), "'waitTime'"),
				illegal("withWaitTime(-1ns)", () -> LockRequest.exclusive(KEY).withWaitTime(Duration.ofNanos(-1)),
						"Wait time must not be negative"),
				illegal("withWaitTime(most negative duration)",
						() -> LockRequest.read(KEY).withWaitTime(Duration.ofSeconds(Long.MIN_VALUE)),
						"Wait time must not be negative"),
				illegal("withHoldAtLeast(null)", () -> LockRequest.exclusive(KEY).withHoldAtLeast(null),
						"Hold-at-least time"),
				illegal("withHoldAtLeast(-1ms)",
						() -> LockRequest.exclusive(KEY).withHoldAtLeast(Duration.ofMillis(-1)), "Hold-at-least time"),
				illegal("withName(null)", () -> LockRequest.exclusive(KEY).withName(null), "'name'"),
				illegal("withName(\"\")", () -> LockRequest.exclusive(KEY).withName(""), "'name'"),
				illegal("withName(\" \")", () -> LockRequest.exclusive(KEY).withName(" "), "'name'"));
	}

	@ParameterizedTest
	@MethodSource
	void requests(ThrowingCallable call, Class<? extends Throwable> type, String culprit) {
		assertThatExceptionOfType(type).isThrownBy(call).withMessageContaining(culprit);
	}

	@Test
	void extremeButValidArgumentsLockAndRelease() {
		Duration longest = Duration.ofSeconds(Long.MAX_VALUE, 999_999_999);
		assertThat(template.<String>execute(KEY, longest, (lock) -> lock.key())).isEqualTo(KEY);
		assertThat(template.<String>execute(LockRequest.semaphore(KEY, Integer.MAX_VALUE).withWaitTime(longest),
				(lock) -> lock.key()))
			.isEqualTo(KEY);
		assertThat(template.<String>execute(List.of(OTHER_KEY, KEY, KEY), LockType.READ, longest, (lock) -> lock.key()))
			.isEqualTo(KEY + "," + OTHER_KEY);
		String huge = KEY + "x".repeat(1024 * 1024);
		assertThat(template.<String>execute(huge, Duration.ZERO, (lock) -> lock.key())).isEqualTo(huge);
	}

	static Stream<Arguments> handles() {
		return Stream
			.of(illegal("new MultiKeyLock(null)", () -> new MultiKeyLock(null), "'locks'"),
					illegal("new MultiKeyLock(no locks)", () -> new MultiKeyLock(List.of()), "'locks'"),
					illegal("new MultiKeyLock(locks with null)",
							() -> new MultiKeyLock(Arrays.asList((LockHandle) null)), "'locks'"),
					illegal("AbbreviatedKey.of(null)", () -> AbbreviatedKey.of(null), "'key'"),
					failure("LockHandle.current() outside a lock", IllegalStateException.class, LockHandle::current,
							"holds no distributed lock"),
					failure("ReactiveLockContext.currentLock() outside a lock", IllegalStateException.class,
							() -> ReactiveLockContext.currentLock().block(), "holds no distributed lock"));
	}

	@ParameterizedTest
	@MethodSource
	void handles(ThrowingCallable call, Class<? extends Throwable> type, String culprit) {
		assertThatExceptionOfType(type).isThrownBy(call).withMessageContaining(culprit);
	}

	private static Arguments illegal(String call, ThrowingCallable callable, String culprit) {
		return failure(call, IllegalArgumentException.class, callable, culprit);
	}

	private static Arguments failure(String call, Class<? extends Throwable> type, ThrowingCallable callable,
			String culprit) {
		return Arguments.of(Named.of(call, callable), type, culprit);
	}

}
