package dev.zklock.interceptor;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.LockException;
import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import org.aopalliance.intercept.MethodInvocation;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.scheduler.Schedulers;

/**
 * Locks around Reactor results: the lock is acquired when the result is subscribed to, on
 * a thread that may block ({@link Schedulers#boundedElastic()}), the method is called
 * under it, and the lock is released when the result terminates. Loaded only for methods
 * that return {@code Mono} or {@code Flux}, so Reactor stays optional.
 */
final class ReactiveLocking {

	private ReactiveLocking() {
	}

	/**
	 * A {@code Mono} that locks, calls the method, and completes after the lock is
	 * released (with {@link dev.zklock.LockLostException} if it was lost meanwhile and
	 * the lost-lock policy raises losses). Cancelling it cancels the method's
	 * {@code Mono}, which releases the lock.
	 */
	static Mono<Object> mono(LockTemplate template, LockRequest request, MethodInvocation invocation,
			LockFailureResponse onFailure) {
		return Mono.defer(() -> {
			AtomicBoolean acquired = new AtomicBoolean();
			AtomicReference<CompletableFuture<Object>> work = new AtomicReference<>();
			CompletableFuture<Object> result;
			try {
				result = template.executeAsync(request, (lock) -> {
					acquired.set(true);
					CompletableFuture<Object> running = ReactiveLocking.<Mono<Object>>proceed(invocation).toFuture();
					work.set(running);
					return running;
				});
			}
			catch (LockException ex) {
				if (acquired.get()) {
					throw ex;
				}
				return ReactiveLocking.<Mono<Object>>respond(onFailure, ex, invocation);
			}
			return Mono.fromFuture(result).doOnCancel(() -> work.get().cancel(true));
		}).subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * A {@code Flux} that locks, calls the method, and releases the lock once the
	 * method's flux terminates or is cancelled.
	 */
	static Flux<Object> flux(LockTemplate template, LockRequest request, MethodInvocation invocation,
			LockFailureResponse onFailure) {
		return Flux.defer(() -> {
			CompletableFuture<Object> terminated = new CompletableFuture<>();
			try {
				template.executeAsync(request, (lock) -> terminated);
			}
			catch (LockException ex) {
				return ReactiveLocking.<Flux<Object>>respond(onFailure, ex, invocation);
			}
			try {
				return ReactiveLocking.<Flux<Object>>proceed(invocation)
					.doFinally((signal) -> terminated.complete(null));
			}
			catch (RuntimeException | Error ex) {
				terminated.complete(null);
				throw ex;
			}
		}).subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * A result that fails with the lock exception.
	 */
	static Object error(LockedResult result, LockException failure) {
		return (result == LockedResult.MONO) ? Mono.error(failure) : Flux.error(failure);
	}

	/**
	 * A result that completes with nothing.
	 */
	static Object empty(LockedResult result) {
		return (result == LockedResult.MONO) ? Mono.empty() : Flux.empty();
	}

	@SuppressWarnings("unchecked")
	private static <P> P proceed(MethodInvocation invocation) {
		Object result;
		try {
			result = invocation.proceed();
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new UndeclaredThrowableException(ex, "@DistributedLock method " + invocation.getMethod().getName()
					+ " threw a checked exception instead of returning its result");
		}
		if (result == null) {
			throw new IllegalStateException("@DistributedLock method " + invocation.getMethod().toGenericString()
					+ " returned null instead of a " + invocation.getMethod().getReturnType().getSimpleName());
		}
		return (P) result;
	}

	@SuppressWarnings("unchecked")
	private static <P> P respond(LockFailureResponse onFailure, LockException failure, MethodInvocation invocation) {
		try {
			return (P) onFailure.respond(failure, invocation);
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new UndeclaredThrowableException(ex, "@DistributedLock method " + invocation.getMethod().getName()
					+ " threw a checked exception instead of returning its result");
		}
	}

}
