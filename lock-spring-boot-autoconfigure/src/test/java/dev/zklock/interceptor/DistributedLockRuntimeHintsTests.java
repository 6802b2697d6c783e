package dev.zklock.interceptor;

import java.lang.reflect.Method;

import dev.zklock.DistributedLock;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DistributedLockRuntimeHints}.
 */
class DistributedLockRuntimeHintsTests {

	private final RuntimeHints hints = new RuntimeHints();

	DistributedLockRuntimeHintsTests() {
		new DistributedLockRuntimeHints().registerHints(this.hints, getClass().getClassLoader());
	}

	@ParameterizedTest
	@ValueSource(strings = { "getMethod", "getMethodName", "getArgs", "getTarget" })
	void keyExpressionsCanReadTheRootObject(String getter) {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(LockExpressionRoot.class, getter))
			.accepts(this.hints);
	}

	@Test
	void keyExpressionsCanReadTheInvokedMethod() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Method.class.getMethod("getName")))
			.accepts(this.hints);
	}

	@Test
	void composedAnnotationsCanBeSynthesized() {
		assertThat(RuntimeHintsPredicates.proxies().forInterfaces(DistributedLock.class)).accepts(this.hints);
	}

}
