package dev.zklock.interceptor;

import java.lang.reflect.Method;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.Future;

import org.springframework.util.ClassUtils;

/**
 * What a {@link dev.zklock.DistributedLock} method returns, as far as it decides when the
 * lock is released: when the method returns, or when its asynchronous result completes.
 */
enum LockedResult {

	/**
	 * A plain value: released when the method returns.
	 */
	VALUE,

	/**
	 * A {@code CompletableFuture} or {@code CompletionStage}: released when it completes.
	 */
	COMPLETION_STAGE,

	/**
	 * A Reactor {@code Mono}: acquired on subscription, released when it completes.
	 */
	MONO,

	/**
	 * A Reactor {@code Flux}: acquired on subscription, released when it terminates or is
	 * cancelled.
	 */
	FLUX;

	private static final String PUBLISHER = "org.reactivestreams.Publisher";

	/**
	 * What a method returns.
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
		if (returnType.getName().equals("reactor.core.publisher.Mono")) {
			return MONO;
		}
		if (returnType.getName().equals("reactor.core.publisher.Flux")) {
			return FLUX;
		}
		if (Future.class.isAssignableFrom(returnType) || CompletionStage.class.isAssignableFrom(returnType)
				|| isPublisher(returnType)) {
			throw new IllegalStateException("@DistributedLock on " + LockSpecSource.describe(method) + " returns "
					+ returnType.getName() + ", whose completion the lock cannot follow, so the lock would be "
					+ "released before the result is ready; return CompletableFuture, CompletionStage, Mono or Flux");
		}
		return VALUE;
	}

	private static boolean isPublisher(Class<?> type) {
		return type.getName().equals(PUBLISHER) || ClassUtils.getAllInterfacesForClassAsSet(type)
			.stream()
			.anyMatch((candidate) -> candidate.getName().equals(PUBLISHER));
	}

}
