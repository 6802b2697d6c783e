package dev.zklock.testsupport;

import org.junit.platform.launcher.TestExecutionListener;
import org.junit.platform.launcher.TestIdentifier;

/**
 * Prints why a test or a test class was skipped, which Surefire's report leaves out: it
 * only counts skipped tests. Registered through {@code META-INF/services}.
 */
public class SkippedTestReporter implements TestExecutionListener {

	@Override
	public void executionSkipped(TestIdentifier testIdentifier, String reason) {
		System.out.println("Skipped " + testIdentifier.getDisplayName() + ": " + reason);
	}

}
