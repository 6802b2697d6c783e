package dev.zklock.autoconfigure;

import dev.zklock.autoconfigure.UnknownPropertiesException.UnknownProperty;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an {@link UnknownPropertiesException}: each unknown property, where it came
 * from and the known property it is closest to, in the layout of Spring Boot's own
 * reports of bad configuration.
 */
class UnknownPropertiesFailureAnalyzer extends AbstractFailureAnalyzer<UnknownPropertiesException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, UnknownPropertiesException cause) {
		StringBuilder description = new StringBuilder(
				"Properties under 'distributed-lock.' name nothing that zklock defines:\n");
		for (UnknownProperty property : cause.getProperties()) {
			description.append("\n    Property: ").append(property.name());
			description.append("\n    Origin: ").append(property.origin());
			if (property.suggestion() != null) {
				description.append("\n    Did you mean: ").append(property.suggestion()).append('?');
			}
			description.append('\n');
		}
		return new FailureAnalysis(description.toString(),
				"Correct or remove each property (the configuration reference lists zklock's properties). "
						+ "A property of a zklock module needs that module on the class path. To start despite "
						+ "unknown properties, set 'distributed-lock.fail-on-unknown-properties=false'.",
				cause);
	}

}
