package dev.zklock;

/**
 * How a lock key appears in the messages of exceptions and in log lines: whole when it is
 * at most {@value #MAX_LENGTH} characters long, else its first {@value #MAX_LENGTH}
 * characters followed by its length, such as {@code report:2026-11-22:...
 * (102400 characters)}, so that a huge key does not make a huge message. The exceptions
 * keep the whole key for code that needs it ({@link LockTimeoutException#getKey()},
 * {@link LockAcquisitionException#getKey()}, {@link LockLostException#getKey()}).
 */
public final class AbbreviatedKey {

	/** The length up to which a key appears whole. */
	public static final int MAX_LENGTH = 100;

	private AbbreviatedKey() {
	}

	/**
	 * The key as messages and log lines show it.
	 * @param key the lock key
	 * @return the key, or its beginning and its length if it is longer than
	 * {@value #MAX_LENGTH} characters
	 * @throws IllegalArgumentException if the key is {@code null}
	 */
	public static String of(String key) {
		if (key == null) {
			throw new IllegalArgumentException("'key' must not be null");
		}
		if (key.length() <= MAX_LENGTH) {
			return key;
		}
		int end = Character.isHighSurrogate(key.charAt(MAX_LENGTH - 1)) ? MAX_LENGTH - 1 : MAX_LENGTH;
		return key.substring(0, end) + "... (" + key.length() + " characters)";
	}

}
