package dev.zklock.interceptor;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an {@link InvalidLockAnnotationException} in Spring Boot's start-up failure
 * report: the method, the attribute and the fix, instead of a {@code Caused by} in the
 * middle of a stack trace.
 */
class InvalidLockAnnotationFailureAnalyzer extends AbstractFailureAnalyzer<InvalidLockAnnotationException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidLockAnnotationException cause) {
		return new FailureAnalysis(String.format(
				"@DistributedLock cannot apply as written.%n%n    Method:    %s%n"
						+ "    Attribute: %s%n    Problem:   %s",
				cause.getMethod(), cause.getAttribute(), cause.getMessage()), cause.getFix(), cause);
	}

}
