package dev.zklock.test;

import java.util.List;
import java.util.stream.Collectors;

import dev.zklock.LockType;
import dev.zklock.test.LockRecorder.RecordedHold;
import org.jspecify.annotations.Nullable;

/**
 * Assertions about the locks that a call took on its thread, made by
 * {@link LockAssertions#assertThatCall(Runnable)} once the call has run.
 */
public final class LockedCallAssert {

	private final List<RecordedHold> holds;

	private final boolean recorded;

	private @Nullable String key;

	LockedCallAssert(List<RecordedHold> holds, boolean recorded) {
		this.holds = holds;
		this.recorded = recorded;
	}

	/**
	 * Asserts that the call ran under the lock of the key, of any type; the next
	 * {@link #ofType(LockType)} is about this key.
	 * @param key the lock key
	 * @return these assertions
	 * @throws AssertionError if the call took no lock of the key, naming those it took
	 * @throws IllegalArgumentException if the key is {@code null}
	 */
	public LockedCallAssert ranUnderLock(String key) {
		if (key == null) {
			throw new IllegalArgumentException("'key' must not be null");
		}
		if (holdsOf(key).isEmpty()) {
			throw new AssertionError("Expected the call to run under the lock of '" + key + "', but it took "
					+ describe(this.holds) + unrecordedHint());
		}
		this.key = key;
		return this;
	}

	/**
	 * Asserts that the call held the lock of the key of the last
	 * {@link #ranUnderLock(String)} as a lock of the type, at least once.
	 * @param type the lock type
	 * @return these assertions
	 * @throws AssertionError if the call held the key's lock only as other types, naming
	 * them
	 * @throws IllegalArgumentException if the type is {@code null}
	 * @throws IllegalStateException if {@link #ranUnderLock(String)} was not called
	 * before
	 */
	public LockedCallAssert ofType(LockType type) {
		if (type == null) {
			throw new IllegalArgumentException("'type' must not be null");
		}
		String key = this.key;
		if (key == null) {
			throw new IllegalStateException(
					"ofType(" + type + ") is about the key of ranUnderLock(key): call that first");
		}
		List<RecordedHold> ofKey = holdsOf(key);
		String expected = LockAssertions.nameOf(type);
		if (ofKey.stream().noneMatch((hold) -> LockAssertions.nameOf(hold.type()).equals(expected))) {
			throw new AssertionError("Expected the call to run under the lock of '" + key + "' as " + type
					+ ", but it held it as "
					+ ofKey.stream().map((hold) -> hold.type().name()).distinct().collect(Collectors.joining(" and ")));
		}
		return this;
	}

	/**
	 * Asserts that the call took no lock on its thread.
	 * @throws AssertionError if it took one, naming those it took
	 */
	public void ranUnderNoLock() {
		if (!this.recorded) {
			throw new AssertionError("Expected the call to run under no lock, but no application of an "
					+ "@EmbeddedLockServer test runs, whose locks LockAssertions records");
		}
		if (!this.holds.isEmpty()) {
			throw new AssertionError("Expected the call to run under no lock, but it took " + describe(this.holds));
		}
	}

	private List<RecordedHold> holdsOf(String key) {
		return this.holds.stream().filter((hold) -> hold.key().equals(key)).toList();
	}

	private String unrecordedHint() {
		return this.recorded ? ""
				: " (no application of an @EmbeddedLockServer test runs, whose locks LockAssertions records)";
	}

	private static String describe(List<RecordedHold> holds) {
		if (holds.isEmpty()) {
			return "no lock";
		}
		return "only " + holds.stream()
			.map((hold) -> "'" + hold.key() + "' (" + hold.type() + ")")
			.distinct()
			.collect(Collectors.joining(", "));
	}

}
