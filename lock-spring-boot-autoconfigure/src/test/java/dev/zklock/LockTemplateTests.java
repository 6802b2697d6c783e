package dev.zklock;

import java.io.IOException;
import java.lang.reflect.UndeclaredThrowableException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.catchThrowableOfType;
import static org.awaitility.Awaitility.await;

@ExtendWith(OutputCaptureExtension.class)
class LockTemplateTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static ZooKeeperLockRegistry registry;

	private static LockTemplate template;

	private static LockTemplate otherProcess;

	@BeforeAll
	static void connect() throws Exception {
		registry = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		template = new LockTemplate(registry, Duration.ofSeconds(5));
		// a release does not wait for ZooKeeper: the other process waits for it to be
		// applied
		otherProcess = new LockTemplate(new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks"),
				Duration.ofSeconds(10));
	}

	@Test
	void callbackRunsWhileHoldingTheLockAndItsResultIsReturned() {
		String result = template.execute("report:2026-11-22", (lock) -> {
			assertThat(lock.key()).isEqualTo("report:2026-11-22");
			assertThat(lock.isValid()).isTrue();
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> otherProcess.execute("report:2026-11-22", Duration.ZERO, (other) -> "never"));
			return "built with " + lock.fencingToken();
		});
		assertThat(result).startsWith("built with ");
		assertThat(otherProcess.<String>execute("report:2026-11-22", (lock) -> "free again")).isEqualTo("free again");
	}

	@Test
	void interruptedCallbackLeavesTheThreadInterrupted() {
		try {
			assertThatExceptionOfType(UndeclaredThrowableException.class)
				.isThrownBy(() -> template.execute("sleepy", (lock) -> {
					Thread.currentThread().interrupt();
					Thread.sleep(10_000);
					return "never";
				}))
				.withCauseInstanceOf(InterruptedException.class);
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(otherProcess.<String>execute("sleepy", (lock) -> "free")).isEqualTo("free");
	}

	@Test
	void handleIsInvalidAfterTheCallback() {
		LockHandle handle = template.execute("escaped", (lock) -> lock);
		assertThat(handle.isValid()).isFalse();
	}

	@Test
	void currentIsTheInnermostLockOfTheThread() {
		assertThatIllegalStateException().isThrownBy(LockHandle::current).withMessageContaining("holds no");
		template.execute("outer", (outer) -> {
			assertThat(LockHandle.current()).isSameAs(outer);
			template.execute("inner", (inner) -> assertThat(LockHandle.current()).isSameAs(inner));
			assertThat(LockHandle.current()).isSameAs(outer);
			return null;
		});
		assertThatIllegalStateException().isThrownBy(LockHandle::current);
	}

	@Test
	void uncheckedExceptionsPropagateUnchangedAndReleaseTheLock() {
		IllegalStateException failure = new IllegalStateException("boom");
		assertThatExceptionOfType(IllegalStateException.class).isThrownBy(() -> template.execute("failing", (lock) -> {
			throw failure;
		})).isSameAs(failure);
		assertThat(otherProcess.<String>execute("failing", (lock) -> "released")).isEqualTo("released");
		assertThatIllegalStateException().isThrownBy(LockHandle::current);
	}

	@Test
	void interruptedHolderReleasesAtOnceAndKeepsItsInterrupt(CapturedOutput output) {
		try {
			template.execute("interrupted", (lock) -> {
				Thread.currentThread().interrupt();
				return null;
			});
			assertThat(Thread.currentThread().isInterrupted()).isTrue();
		}
		finally {
			Thread.interrupted();
		}
		assertThat(otherProcess.<String>execute("interrupted", (lock) -> "released")).isEqualTo("released");
		assertThat(output).doesNotContain("Could not confirm the release");
	}

	@Test
	void checkedExceptionsAreWrappedAndReleaseTheLock() {
		IOException failure = new IOException("disk full");
		assertThatExceptionOfType(UndeclaredThrowableException.class)
			.isThrownBy(() -> template.execute("checked", (lock) -> {
				throw failure;
			}))
			.withMessageContaining("'checked'")
			.havingCause()
			.isSameAs(failure);
		assertThat(otherProcess.<String>execute("checked", (lock) -> "released")).isEqualTo("released");
	}

	@Test
	void blankKeysAndNegativeWaitTimesAreRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> template.execute(" ", (lock) -> "never"))
			.withMessageContaining("blank");
		assertThatIllegalArgumentException()
			.isThrownBy(() -> template.execute("k", Duration.ofSeconds(-1), (lock) -> "never"))
			.withMessageContaining("negative");
	}

	@Test
	void waitTimesBeyondTheNanosecondRangeWaitWithoutBound() throws Exception {
		assertThat(template.<String>execute("forever", Duration.ofMillis(Long.MAX_VALUE), (lock) -> "free"))
			.isEqualTo("free");
		assertThat(template.<String>execute(
				LockRequest.read("forever").withWaitTime(Duration.ofSeconds(Long.MAX_VALUE)), (lock) -> "read"))
			.isEqualTo("read");
		assertThat(template.<String>execute(List.of("forever:a", "forever:b"), LockType.EXCLUSIVE,
				Duration.ofSeconds(Long.MAX_VALUE, 999_999_999), (lock) -> "both"))
			.isEqualTo("both");
		assertThat(new LockTemplate(registry, Duration.ofSeconds(Long.MAX_VALUE)).<String>execute("forever",
				(lock) -> "by default"))
			.isEqualTo("by default");
		CompletableFuture<String> waiter = otherProcess.execute("forever", (held) -> {
			CompletableFuture<String> waiting = CompletableFuture
				.supplyAsync(() -> template.execute("forever", Duration.ofMillis(Long.MAX_VALUE), (lock) -> "waited"));
			await().atMost(Duration.ofSeconds(10)).until(() -> !registry.waitingLocks().isEmpty());
			return waiting;
		});
		assertThat(waiter.get(10, TimeUnit.SECONDS)).isEqualTo("waited");
	}

	@Test
	void messagesAbbreviateAHugeKeyThatTheExceptionKeepsWhole() {
		String key = "huge:" + "k".repeat(100 * 1024);
		LockTimeoutException timeout = otherProcess.execute(key,
				(held) -> catchThrowableOfType(LockTimeoutException.class,
						() -> template.execute(key, Duration.ZERO, (lock) -> "never")));
		assertThat(timeout.getMessage()).hasSizeLessThan(500)
			.startsWith("Could not acquire lock '" + key.substring(0, 100) + "... (" + key.length() + " characters)'");
		assertThat(timeout.getKey()).isEqualTo(key);
	}

}
