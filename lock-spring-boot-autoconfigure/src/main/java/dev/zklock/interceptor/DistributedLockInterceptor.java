package dev.zklock.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.Supplier;

import dev.zklock.LockException;
import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.LockType;
import org.aopalliance.intercept.MethodInterceptor;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;

/**
 * Runs {@link dev.zklock.DistributedLock} methods under their lock through a
 * {@link LockTemplate}. A call whose lock cannot be acquired never runs: it gets the
 * response its annotation chose. Exceptions of the method reach the caller unchanged
 * (with a {@link dev.zklock.LockLostException} added as a suppressed exception when the
 * lock was lost meanwhile and the lost-lock policy raises losses).
 */
public final class DistributedLockInterceptor implements MethodInterceptor {

	private final LockSpecSource specs;

	private final LockKeyEvaluator keyEvaluator;

	private final Supplier<LockTemplate> lockTemplate;

	DistributedLockInterceptor(LockSpecSource specs, LockKeyEvaluator keyEvaluator,
			Supplier<LockTemplate> lockTemplate) {
		this.specs = specs;
		this.keyEvaluator = keyEvaluator;
		this.lockTemplate = lockTemplate;
	}

	@Override
	public @Nullable Object invoke(MethodInvocation invocation) throws Throwable {
		Object target = invocation.getThis();
		Class<?> targetClass = (target != null) ? AopUtils.getTargetClass(target) : null;
		LockSpec spec = this.specs.getLockSpec(invocation.getMethod(), targetClass);
		if (spec == null) {
			return invocation.proceed();
		}
		List<String> keys = this.keyEvaluator.resolveKeys(spec, invocation.getArguments(), target);
		LockTemplate template = this.lockTemplate.get();
		Duration waitTime = (spec.waitTime() != null) ? spec.waitTime() : template.getDefaultWaitTime();
		if (keys.size() > 1 && (spec.result().kind() != LockedResult.Kind.VALUE || !spec.holdAtLeast().isZero()
				|| spec.type() == LockType.SEMAPHORE)) {
			throw new IllegalArgumentException(spec.describe() + " evaluated to several keys, which cannot be "
					+ "locked as a semaphore, for an asynchronous result or a suspend function, or with a minimum hold "
					+ "time");
		}
		LockRequest request = new LockRequest(keys.get(0), spec.type(), spec.permits(), waitTime, spec.holdAtLeast(),
				spec.name());
		AtomicBoolean acquired = new AtomicBoolean();
		try {
			if (keys.size() > 1) {
				return template.execute(spec.name(), keys, spec.type(), waitTime, (lock) -> {
					acquired.set(true);
					return proceed(invocation);
				});
			}
			if (spec.result().kind() == LockedResult.Kind.REACTIVE
					|| spec.result().kind() == LockedResult.Kind.SUSPENDING) {
				// A suspend function's call is a Mono of its result to Spring's proxy,
				// which awaits it
				return ReactiveLocking.lock(spec.result().reactiveAdapter(), template, request, invocation,
						spec.onFailure());
			}
			if (spec.result().kind() == LockedResult.Kind.COMPLETION_STAGE) {
				return template.executeAsync(request, (lock) -> {
					acquired.set(true);
					return (CompletionStage<?>) proceed(invocation);
				});
			}
			return template.execute(request, (lock) -> {
				acquired.set(true);
				return proceed(invocation);
			});
		}
		catch (LockException ex) {
			if (acquired.get()) {
				throw ex;
			}
			return spec.onFailure().respond(ex, invocation);
		}
		catch (InvocationFailure failure) {
			Throwable cause = failure.getCause();
			for (Throwable suppressed : failure.getSuppressed()) {
				cause.addSuppressed(suppressed);
			}
			throw cause;
		}
	}

	private static @Nullable Object proceed(MethodInvocation invocation) {
		try {
			return invocation.proceed();
		}
		catch (Throwable ex) {
			throw new InvocationFailure(ex);
		}
	}

	/**
	 * Carries whatever the method threw through the template unchanged, and brings back
	 * what the template added to it (a lost lock).
	 */
	private static final class InvocationFailure extends RuntimeException {

		private final Throwable cause;

		InvocationFailure(Throwable cause) {
			super(null, null, true, false);
			this.cause = cause;
		}

		@Override
		public synchronized Throwable getCause() {
			return this.cause;
		}

	}

}
