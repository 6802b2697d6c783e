package dev.zklock.test;

import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.test.context.ContextConfigurationAttributes;
import org.springframework.test.context.ContextCustomizer;
import org.springframework.test.context.ContextCustomizerFactory;
import org.springframework.test.context.TestContextAnnotationUtils;

/**
 * Gives the application context of a test class annotated with {@link EmbeddedLockServer}
 * (or enclosed in one) its server; registered in {@code META-INF/spring.factories}.
 */
class EmbeddedLockServerContextCustomizerFactory implements ContextCustomizerFactory {

	@Override
	public @Nullable ContextCustomizer createContextCustomizer(Class<?> testClass,
			List<ContextConfigurationAttributes> configAttributes) {
		if (TestContextAnnotationUtils.hasAnnotation(testClass, EmbeddedLockServer.class)) {
			return new EmbeddedLockServerContextCustomizer();
		}
		return null;
	}

}
