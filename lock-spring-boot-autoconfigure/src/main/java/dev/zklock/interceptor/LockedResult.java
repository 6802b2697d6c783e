package dev.zklock.interceptor;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import org.jspecify.annotations.Nullable;

import org.springframework.core.ReactiveAdapter;
import org.springframework.core.ReactiveAdapterRegistry;
import org.springframework.util.ClassUtils;

/**
 * What a {@link dev.zklock.DistributedLock} method returns, as far as it decides when the
 * lock is released: when the method returns, when its asynchronous result completes, or
 * when its reactive result terminates or is cancelled.
 *
 * @param kind the kind of result
 * @param adapter for a reactive result, the adapter of its type in Spring's
 * {@link ReactiveAdapterRegistry}; {@code null} otherwise
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

	/**
	 * What a method returns. A reactive result is any deferred type that Spring's shared
	 * {@link ReactiveAdapterRegistry} adapts, as Spring's own method interceptors do:
	 * Reactor's {@code Mono} and {@code Flux}, a Reactive Streams or JDK
	 * {@code Publisher}, and RxJava's types when RxJava is on the class path. Locking one
	 * needs Reactor.
	 * @param method the method
	 * @return the kind of its result
	 * @throws IllegalStateException if it returns an asynchronous result whose completion
	 * the lock cannot follow
	 */
	static LockedResult of(Method method) {
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
	 * The adapter of a reactive result.
	 * @return the adapter
	 * @throws IllegalStateException if the result is not reactive
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
		REACTIVE

	}

}
