package dev.zklock.interceptor;

import org.jspecify.annotations.Nullable;

/**
 * Thrown at start-up for a {@link dev.zklock.DistributedLock} that cannot apply as
 * written: it names the method, the attribute at fault and how to fix it, which
 * {@link InvalidLockAnnotationFailureAnalyzer} reports.
 */
class InvalidLockAnnotationException extends IllegalStateException {

	private final String method;

	private final String attribute;

	private final String fix;

	/**
	 * Creates the exception.
	 * @param method the annotated method, as {@link LockSpecSource#describe} gives it
	 * @param attribute the attribute at fault, or a description of the method itself
	 * @param message what is wrong
	 * @param fix how to fix it
	 * @param cause the parser's or resolver's failure, or {@code null}
	 */
	InvalidLockAnnotationException(String method, String attribute, String message, String fix,
			@Nullable Throwable cause) {
		super(message, cause);
		this.method = method;
		this.attribute = attribute;
		this.fix = fix;
	}

	String getMethod() {
		return this.method;
	}

	String getAttribute() {
		return this.attribute;
	}

	String getFix() {
		return this.fix;
	}

}
