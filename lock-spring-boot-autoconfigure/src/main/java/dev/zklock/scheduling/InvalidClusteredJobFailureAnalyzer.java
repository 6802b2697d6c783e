package dev.zklock.scheduling;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an {@link InvalidClusteredJobException} in Spring Boot's start-up failure
 * report: the method, the problem and the fix, instead of a {@code Caused by} in the
 * middle of a stack trace.
 */
class InvalidClusteredJobFailureAnalyzer extends AbstractFailureAnalyzer<InvalidClusteredJobException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, InvalidClusteredJobException cause) {
		return new FailureAnalysis(
				String.format("@ClusteredJob cannot apply as written.%n%n    Method:  %s%n    Problem: %s",
						cause.getMethod(), cause.getProblem()),
				cause.getFix(), cause);
	}

}
