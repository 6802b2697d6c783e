package dev.zklock.interceptor;

import java.lang.reflect.Method;

import dev.zklock.DistributedLock;
import org.jspecify.annotations.Nullable;

import org.springframework.aot.hint.MemberCategory;
import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.RuntimeHintsRegistrar;

/**
 * The reflection that {@link DistributedLock} methods need in a native image, whatever
 * the bean: key expressions read the properties of {@link LockExpressionRoot}
 * ({@code #root.methodName}, {@code #root.args}, ...) and of the invoked {@link Method}
 * ({@code #root.method.name}) by reflection, and an annotation that carries
 * {@code @DistributedLock} as a meta-annotation is read through a JDK proxy. The methods
 * of each bean are registered by {@link DistributedLock}'s own reflective processor.
 */
class DistributedLockRuntimeHints implements RuntimeHintsRegistrar {

	@Override
	public void registerHints(RuntimeHints hints, @Nullable ClassLoader classLoader) {
		hints.reflection().registerType(LockExpressionRoot.class, MemberCategory.INVOKE_PUBLIC_METHODS);
		hints.reflection().registerType(Method.class, MemberCategory.INVOKE_PUBLIC_METHODS);
		hints.proxies().registerJdkProxy(DistributedLock.class);
	}

}
