package dev.zklock;

import java.lang.reflect.Method;

import org.springframework.aot.hint.ExecutableMode;
import org.springframework.aot.hint.ReflectionHints;
import org.springframework.aot.hint.annotation.SimpleReflectiveProcessor;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.util.ReflectionUtils;

/**
 * Registers, ahead of time, each {@link DistributedLock} method of a bean for invocation
 * (its parameters are read by name for the key expression), and the methods that its
 * {@link DistributedLock#fallback() fallback} may name, which are called by reflection.
 */
class DistributedLockReflectiveProcessor extends SimpleReflectiveProcessor {

	@Override
	protected void registerMethodHint(ReflectionHints hints, Method method) {
		super.registerMethodHint(hints, method);
		DistributedLock lock = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
		if (lock == null || lock.fallback().isEmpty()) {
			return;
		}
		for (Method candidate : ReflectionUtils.getUniqueDeclaredMethods(method.getDeclaringClass())) {
			if (candidate.getName().equals(lock.fallback())) {
				hints.registerMethod(candidate, ExecutableMode.INVOKE);
			}
		}
	}

}
