package dev.zklock;

import org.jspecify.annotations.Nullable;

/**
 * Base type of the exceptions thrown when a distributed lock cannot be acquired or kept.
 */
public abstract class LockException extends RuntimeException {

	/**
	 * Creates an exception.
	 * @param message the detail message
	 * @param cause the cause, or {@code null}
	 */
	protected LockException(String message, @Nullable Throwable cause) {
		super(message, cause);
	}

}
