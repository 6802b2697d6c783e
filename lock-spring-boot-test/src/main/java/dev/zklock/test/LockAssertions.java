package dev.zklock.test;

import java.util.List;
import java.util.stream.Collectors;

import dev.zklock.LockType;
import dev.zklock.zookeeper.LockActivity;
import org.jspecify.annotations.Nullable;

/**
 * Checks that code runs under the distributed lock of a key, and of a type, in the
 * application of an {@link EmbeddedLockServer} test. Failures are {@link AssertionError}s
 * that say which locks the code held instead.
 * <p>
 * Inside the code under test, such as a collaborator that a locked method calls:
 *
 * <pre class="code">
 * LockAssertions.assertLocked("order:42");
 * LockAssertions.assertLocked("catalog", LockType.READ);
 * </pre>
 *
 * Around a call, from the test:
 *
 * <pre class="code">
 * LockAssertions.assertThatCall(() -&gt; orders.pay("42")).ranUnderLock("order:42").ofType(LockType.EXCLUSIVE);
 * LockAssertions.assertThatCheckedCall(() -&gt; orders.refund("42")).ranUnderLock("order:42");
 * </pre>
 *
 * ({@link #assertThatCheckedCall(CheckedCall)} for a call that throws checked
 * exceptions).
 *
 * A write lock is the exclusive lock of its key, so {@link LockType#WRITE} and
 * {@link LockType#EXCLUSIVE} match each other. Locks that belong to no thread, those of
 * asynchronous work (a locked method that returns a {@code CompletableFuture}, for
 * example), are not the calling thread's.
 */
public final class LockAssertions {

	private LockAssertions() {
	}

	/**
	 * Asserts that the calling thread holds the lock of the key now, of any type.
	 * @param key the lock key
	 * @throws AssertionError if it does not, naming the locks it holds
	 * @throws IllegalArgumentException if the key is {@code null}
	 */
	public static void assertLocked(String key) {
		assertHeld(key, null);
	}

	/**
	 * Asserts that the calling thread holds the lock of the key now, of the type.
	 * @param key the lock key
	 * @param type the lock type
	 * @throws AssertionError if it does not, naming the locks it holds
	 * @throws IllegalArgumentException if the key or the type is {@code null}
	 */
	public static void assertLocked(String key, LockType type) {
		if (type == null) {
			throw new IllegalArgumentException("'type' must not be null");
		}
		assertHeld(key, type);
	}

	/**
	 * Runs a call now, on the calling thread, and returns the assertions about the locks
	 * it took meanwhile through {@code @DistributedLock} or {@code LockTemplate}, on the
	 * calling thread. The call's exceptions propagate unchanged.
	 * @param call the call
	 * @return the assertions about the call's locks
	 * @throws IllegalArgumentException if the call is {@code null}
	 */
	public static LockedCallAssert assertThatCall(Runnable call) {
		if (call == null) {
			throw new IllegalArgumentException("'call' must not be null");
		}
		return new LockedCallAssert(LockRecorder.INSTANCE.record(call::run),
				LockRecorder.INSTANCE.observesAnyTemplate());
	}

	/**
	 * Runs a call that may throw checked exceptions, such as a method declared
	 * {@code throws IOException}, as {@link #assertThatCall(Runnable)} runs a call, and
	 * returns the assertions about the locks it took on the calling thread. The call's
	 * exceptions propagate unchanged.
	 * @param <E> the type of the checked exceptions that the call throws
	 * @param call the call
	 * @return the assertions about the call's locks
	 * @throws E what the call throws
	 * @throws IllegalArgumentException if the call is {@code null}
	 */
	public static <E extends Exception> LockedCallAssert assertThatCheckedCall(CheckedCall<E> call) throws E {
		if (call == null) {
			throw new IllegalArgumentException("'call' must not be null");
		}
		return new LockedCallAssert(LockRecorder.INSTANCE.record(call), LockRecorder.INSTANCE.observesAnyTemplate());
	}

	/**
	 * A call that may throw checked exceptions, for
	 * {@link LockAssertions#assertThatCheckedCall(CheckedCall)}.
	 *
	 * @param <E> the type of the checked exceptions that the call throws
	 */
	@FunctionalInterface
	public interface CheckedCall<E extends Exception> {

		/**
		 * Makes the call.
		 * @throws E if the call fails
		 */
		void call() throws E;

	}

	private static void assertHeld(String key, @Nullable LockType type) {
		if (key == null) {
			throw new IllegalArgumentException("'key' must not be null");
		}
		if (!LockRecorder.INSTANCE.watchesAnyRegistry()) {
			throw new AssertionError("Expected the calling thread to hold the lock of '" + key
					+ "', but no application of an @EmbeddedLockServer test runs: LockAssertions sees the locks of those");
		}
		Thread thread = Thread.currentThread();
		List<LockActivity> held = LockRecorder.INSTANCE.heldBy(thread);
		List<LockActivity> ofKey = held.stream().filter((lock) -> lock.key().equals(key)).toList();
		String expected = "Expected thread '" + thread.getName() + "' to hold the lock of '" + key + "'";
		if (ofKey.isEmpty()) {
			throw new AssertionError(
					expected + ((type != null) ? " as " + type : "") + ", but it holds " + describe(held));
		}
		if (type != null && ofKey.stream().noneMatch((lock) -> lock.type().equals(nameOf(type)))) {
			throw new AssertionError(expected + " as " + type + ", but it holds it as "
					+ ofKey.stream().map(LockActivity::type).distinct().collect(Collectors.joining(" and ")));
		}
	}

	private static String describe(List<LockActivity> held) {
		if (held.isEmpty()) {
			return "no lock";
		}
		return "only " + held.stream()
			.map((lock) -> "'" + lock.key() + "' (" + lock.type() + ")")
			.collect(Collectors.joining(", "));
	}

	/**
	 * The name of a lock type as the registry reports the locks it holds, where a write
	 * lock is the exclusive lock of its key.
	 */
	static String nameOf(LockType type) {
		return (type == LockType.WRITE) ? LockType.EXCLUSIVE.name() : type.name();
	}

}
