package dev.zklock.interceptor;

import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Set;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Consumer;
import java.util.stream.Stream;

import dev.zklock.DistributedLock;
import dev.zklock.LockType;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * {@link DistributedLock} key expressions that yield no usable key at a call throw an
 * {@link IllegalArgumentException} naming the expression and the method, without running
 * the method or leaving a lock held: another client takes the key at once afterwards.
 */
class KeyExpressionBadInputTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static ZooKeeperLockRegistry otherProcess;

	@BeforeAll
	static void connectOtherProcess() throws Exception {
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	static Stream<Arguments> unusableKeysAtACallAreRefused() {
		return Stream.of(keyFailure("null", null, "reads '#key', which is null"), keyFailure("\"\"", "", "blank key"),
				keyFailure("\" \\t\\n\"", " \t\n", "blank key"), keyFailure("empty list", List.of(), "no keys"),
				keyFailure("empty set", Set.of(), "no keys"), keyFailure("empty array", new String[0], "no keys"),
				keyFailure("empty int array", new int[0], "no keys"),
				keyFailure("list holding null", Arrays.asList("fuzz", null), "include null"),
				keyFailure("list holding a blank key", List.of("fuzz", " "), "blank key"),
				keyFailure("array holding a blank key", new Object[] { "fuzz", "" }, "blank key"),
				keyFailure("toString() null", new NullText(), "toString() is null"),
				keyFailure("toString() throws", new ThrowingText(), "toString() threw"),
				keyFailure("list holding a toString() that throws", List.of("fuzz", new ThrowingText()),
						"toString() threw"));
	}

	@ParameterizedTest
	@MethodSource
	void unusableKeysAtACallAreRefused(@Nullable Object key, String culprit) {
		LockApplications.connectedTo(zookeeper).withBean(KeyedService.class).run((context) -> {
			KeyedService service = context.getBean(KeyedService.class);
			assertThatIllegalArgumentException().isThrownBy(() -> service.work(key))
				.withMessageContaining("key expression '#key'")
				.withMessageContaining("KeyedService.work(Object)")
				.withMessageContaining(culprit);
			assertThat(service.calls()).isZero();
			assertThat(context.getBean(ZooKeeperLockRegistry.class).keysInUse()).isZero();
			otherProcess.acquire("fuzz", Duration.ofSeconds(10)).release();
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "semaphore", "heldAtLeast" })
	void severalKeysWhereOnlyOneFitsAreRefusedAtTheCall(String method) {
		LockApplications.connectedTo(zookeeper).withBean(SingleKeyService.class).run((context) -> {
			SingleKeyService service = context.getBean(SingleKeyService.class);
			Consumer<Object> call = method.equals("semaphore") ? service::semaphore : service::heldAtLeast;
			assertThatIllegalArgumentException().isThrownBy(() -> call.accept(List.of("fuzz", "fuzz:b")))
				.withMessageContaining("SingleKeyService." + method + "(Object)")
				.withMessageContaining("several keys");
			assertThat(service.calls()).isZero();
			assertThat(context.getBean(ZooKeeperLockRegistry.class).keysInUse()).isZero();
			otherProcess.acquire("fuzz", Duration.ofSeconds(10)).release();
		});
	}

	private static Arguments keyFailure(String description, @Nullable Object key, String culprit) {
		return Arguments.of(Named.of(description, key), culprit);
	}

	static class KeyedService {

		private final AtomicInteger calls = new AtomicInteger();

		public int calls() {
			return this.calls.get();
		}

		@DistributedLock(key = "#key", waitTime = "0")
		public void work(Object key) {
			this.calls.incrementAndGet();
		}

	}

	static class SingleKeyService {

		private final AtomicInteger calls = new AtomicInteger();

		public int calls() {
			return this.calls.get();
		}

		@DistributedLock(key = "#p0", type = LockType.SEMAPHORE, permits = 2, waitTime = "0")
		public void semaphore(Object keys) {
			this.calls.incrementAndGet();
		}

		@DistributedLock(key = "#p0", holdAtLeast = "1s", waitTime = "0")
		public void heldAtLeast(Object keys) {
			this.calls.incrementAndGet();
		}

	}

	static class NullText {

		@Override
		public @Nullable String toString() {
			return null;
		}

	}

	static class ThrowingText {

		@Override
		public String toString() {
			throw new IllegalStateException("no text");
		}

	}

}
