package dev.zklock.interceptor;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import org.jspecify.annotations.Nullable;

import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * What a {@link dev.zklock.DistributedLock} method returns, as far as it decides when the
 * lock is released: when the method returns, when its asynchronous result completes, or
 * when its reactive result terminates or is cancelled, or, for a Kotlin suspend function,
 * when its coroutine ends.
 *
 * @param kind the kind of result
 * @param adapter for a reactive result, the adapter of its type in Spring's
 * {@link ReactiveAdapterRegistry}, for a suspend function the adapter of {@code Mono};
 * {@code null} otherwise
 */
record LockedResult(Kind kind, @Nullable ReactiveAdapter adapter) {

	/**
	 * A plain value: released when the method returns.
	 */
	static final LockedResult VALUE = new LockedResult(Kind.VALUE, null);

	/**
	 * A {@code CompletableFuture} or {@code CompletionStage}: released when it completes.
	 */
	static final LockedResult COMPLETION_STAGE = new LockedResult(Kind.COMPLETION_STAGE, null);

	private static final String REACTOR = "reactor.core.publisher.Flux";

	private static final String MONO = "reactor.core.publisher.Mono";

	private static final String COROUTINES_REACTOR = "kotlinx.coroutines.reactor.MonoKt";

	private static final String FLOW = "kotlinx.coroutines.flow.Flow";

	/**
	 * What a method returns. A reactive result is any deferred type that Spring's shared
	 * {@link ReactiveAdapterRegistry} adapts, as Spring's own method interceptors do:
	 * Reactor's {@code Mono} and {@code Flux}, a Reactive Streams or JDK
	 * {@code Publisher}, and RxJava's types when RxJava is on the class path. Locking one
	 * needs Reactor. A Kotlin suspend function is locked as a {@code Mono} of its result,
	 * which is what Spring's proxies see of it.
	 * @param method the method
	 * @return the kind of its result
	 * @throws IllegalStateException if it returns an asynchronous result whose completion
	 * the lock cannot follow, or is a suspend function that Spring cannot call as a
	 * {@code Mono}
	 */
	static LockedResult of(Method method) {
		if (KotlinDetector.isSuspendingFunction(method)) {
			return suspending(method);
		}
		Class<?> returnType = method.getReturnType();
		if (returnType == CompletionStage.class || returnType == CompletableFuture.class) {
			return COMPLETION_STAGE;
		}
		ReactiveAdapter adapter = (returnType != void.class)
				? ReactiveAdapterRegistry.getSharedInstance().getAdapter(returnType) : null;
		if (adapter != null && adapter.getDescriptor().isDeferred()
				&& returnType.isAssignableFrom(adapter.getReactiveType())) {
			if (!ClassUtils.isPresent(REACTOR, LockedResult.class.getClassLoader())) {
				throw new IllegalStateException("@DistributedLock on " + LockSpecSource.describe(method) + " returns "
						+ returnType.getName() + ", a reactive type, whose lock is held through "
						+ "Reactor: add io.projectreactor:reactor-core to the class path");
			}
			return new LockedResult(Kind.REACTIVE, adapter);
		}
		if (adapter != null || Future.class.isAssignableFrom(returnType)
				|| CompletionStage.class.isAssignableFrom(returnType)) {
			throw new IllegalStateException("@DistributedLock on " + LockSpecSource.describe(method) + " returns "
					+ returnType.getName() + ", whose completion the lock cannot follow, so the lock would be "
					+ "released before the result is ready; return CompletableFuture, CompletionStage, Mono or Flux, "
					+ "or another reactive type that Spring's ReactiveAdapterRegistry adapts, such as RxJava's");
		}
		return VALUE;
	}

	/**
	 * A Kotlin suspend function. With kotlinx-coroutines-reactor on the class path,
	 * Spring's proxies call one through Reactor: the invocation's {@code proceed()}
	 * returns a {@code Mono} of the function's result, whose coroutine starts, in the
	 * caller's coroutine context, when the {@code Mono} is subscribed to, and the proxy
	 * awaits what the interceptors return. Without it, the proxy calls the function
	 * directly and {@code proceed()} returns at the function's first suspension, long
	 * before it ends, so the lock could not follow it.
	 */
	private static LockedResult suspending(Method method) {
		ClassLoader classLoader = LockedResult.class.getClassLoader();
		if (!ClassUtils.isPresent(COROUTINES_REACTOR, classLoader) || !KotlinDetector.isKotlinReflectPresent()) {
			throw new IllegalStateException("@DistributedLock on " + LockSpecSource.describe(method)
					+ " is a suspend function, which Spring calls through kotlinx-coroutines-reactor and "
					+ "kotlin-reflect, or else the lock would be released at the function's first suspension: add "
					+ "org.jetbrains.kotlinx:kotlinx-coroutines-reactor and org.jetbrains.kotlin:kotlin-reflect "
					+ "to the class path");
		}
		if (FLOW.equals(new MethodParameter(method, -1).getParameterType().getName())) {
			throw new IllegalStateException("@DistributedLock on " + LockSpecSource.describe(method)
					+ " is a suspend function that returns a Flow, whose lock would have to last as long as "
					+ "somebody collects the Flow; declare the function without suspend, so that the Flow is "
					+ "locked while it is collected, or return the collected values");
		}
		return new LockedResult(Kind.SUSPENDING,
				ReactiveAdapterRegistry.getSharedInstance().getAdapter(ClassUtils.resolveClassName(MONO, classLoader)));
	}

	/**
	 * The adapter of a reactive result, or of a suspend function's {@code Mono}.
	 * @return the adapter
	 * @throws IllegalStateException if the result is neither reactive nor suspending
	 */
	ReactiveAdapter reactiveAdapter() {
		if (this.adapter == null) {
			throw new IllegalStateException("A " + this.kind + " result has no reactive adapter");
		}
		return this.adapter;
	}

	/**
	 * The kinds of result.
	 */
	enum Kind {

		/**
		 * A plain value: released when the method returns.
		 */
		VALUE,

		/**
		 * A {@code CompletableFuture} or {@code CompletionStage}: released when it
		 * completes.
		 */
		COMPLETION_STAGE,

		/**
		 * A reactive type: acquired on subscription, released when it terminates (a
		 * multi-value type after its last item, a single-value type with its value or
		 * completion) or is cancelled.
		 */
		REACTIVE,

		/**
		 * A Kotlin suspend function: locked as a {@code Mono} of its result is, from the
		 * moment its caller awaits it until its coroutine returns, throws or is
		 * cancelled.
		 */
		SUSPENDING

	}

}
