package dev.zklock.interceptor;

import java.lang.reflect.UndeclaredThrowableException;
import java.util.Objects;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicReference;
import java.util.function.BiFunction;

import dev.zklock.LockException;
import dev.zklock.LockHandle;
import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.ReactiveLockContext;
import org.aopalliance.intercept.MethodInvocation;
import org.jspecify.annotations.Nullable;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;
import reactor.core.scheduler.Schedulers;
import reactor.util.context.Context;

import org.springframework.core.ReactiveAdapter;

/**
 * Locks around reactive results, of any type that Spring's
 * {@link org.springframework.core.ReactiveAdapterRegistry} adapts (Reactor's, RxJava's,
 * Reactive Streams'), seen through Reactor as Spring's own interceptors do: the lock is
 * acquired when the result is subscribed to, on a thread that may block
 * ({@link Schedulers#boundedElastic()}), the method is called under it, and the lock is
 * released when the method's result terminates (a multi-value type after its last item, a
 * single-value type with its value or completion) or is cancelled. The result terminates
 * after the release, with {@link dev.zklock.LockLostException} if the lock was lost
 * meanwhile and the lost-lock policy raises losses. A Reactor publisher of the method
 * finds the lock in its {@code Context} ({@link ReactiveLockContext}).
 * <p>
 * Kotlin suspend functions are locked here too, as Spring's own interceptors lock them:
 * Spring's proxies call a suspend function as a {@code Mono} of its result (the
 * invocation's {@code proceed()} returns it, and its coroutine starts in the caller's
 * coroutine context when it is subscribed to) and await what the interceptors return in
 * the caller's coroutine. The wait for the lock therefore blocks a thread of
 * {@link Schedulers#boundedElastic()}, never the caller's; the lock is held until the
 * function's coroutine returns or throws, and released when the caller's coroutine is
 * cancelled (which cancels the subscription). The function's coroutine finds the lock in
 * its {@code ReactorContext}, under the same key.
 * <p>
 * Loaded only for methods with a reactive result or suspend functions, so Reactor stays
 * optional.
 */
final class ReactiveLocking {

	private ReactiveLocking() {
	}

	/**
	 * A result of the method's type that locks, calls the method, and passes on the
	 * method's items, value or completion, terminating after the lock is released
	 * (failing with {@link dev.zklock.LockLostException} if the lock was lost meanwhile
	 * and the lost-lock policy raises losses). Cancelling it cancels the method's result
	 * and releases the lock.
	 * @param adapter the adapter of the method's result type
	 * @param template the template that locks
	 * @param request the lock to acquire
	 * @param invocation the call
	 * @param onFailure what the call returns when the lock cannot be acquired
	 * @return the locked result, of the method's result type
	 */
	static Object lock(ReactiveAdapter adapter, LockTemplate template, LockRequest request, MethodInvocation invocation,
			LockFailureResponse onFailure) {
		if (adapter.isMultiValue()) {
			Flux<Object> items = Flux.defer(() -> ReactiveLocking.<Flux<Object>>lockAndCall(adapter, template, request,
					invocation, onFailure, (hold, result) -> hold.keep(Flux.from(result))));
			return adapter.fromPublisher(items.subscribeOn(Schedulers.boundedElastic()));
		}
		Mono<Object> value = Mono.defer(() -> ReactiveLocking.<Mono<Object>>lockAndCall(adapter, template, request,
				invocation, onFailure, (hold, result) -> hold.keep(Mono.from(result))));
		return adapter.fromPublisher(value.subscribeOn(Schedulers.boundedElastic()));
	}

	/**
	 * Locks and calls the method, keeping the lock until the method's result terminates
	 * or is cancelled; a lock that cannot be had gets the failure response.
	 */
	private static <P extends Publisher<Object>> P lockAndCall(ReactiveAdapter adapter, LockTemplate template,
			LockRequest request, MethodInvocation invocation, LockFailureResponse onFailure,
			BiFunction<Hold, Publisher<Object>, P> keep) {
		Hold hold = new Hold();
		Object result;
		try {
			result = hold.call(template, request, invocation);
		}
		catch (LockException ex) {
			if (hold.isAcquired()) {
				throw ex;
			}
			return respond(onFailure, ex, invocation, adapter);
		}
		return keep.apply(hold, adapter.toPublisher(result));
	}

	/**
	 * A result of the adapter's type that fails with the lock exception.
	 */
	static Object error(ReactiveAdapter adapter, LockException failure) {
		return adapter.fromPublisher(Mono.error(failure));
	}

	/**
	 * A result of the adapter's type that completes with nothing.
	 */
	static Object empty(ReactiveAdapter adapter) {
		return adapter.fromPublisher(Mono.empty());
	}

	/**
	 * What a suspend function's call returns to Spring's proxy for a value: a
	 * {@code Mono} of it, empty for {@code null} (and {@code Unit}).
	 */
	static Object valueOf(@Nullable Object value) {
		return Mono.justOrEmpty(value);
	}

	private static Object proceed(MethodInvocation invocation) {
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
		return result;
	}

	/**
	 * The failure response as a publisher of the kind the caller subscribes to.
	 */
	@SuppressWarnings("unchecked")
	private static <P extends Publisher<Object>> P respond(LockFailureResponse onFailure, LockException failure,
			MethodInvocation invocation, ReactiveAdapter adapter) {
		try {
			Object response = onFailure.respond(failure, invocation);
			if (response == null) {
				throw new IllegalStateException("The lock failure response of @DistributedLock method "
						+ invocation.getMethod().toGenericString() + " returned null instead of a "
						+ invocation.getMethod().getReturnType().getSimpleName());
			}
			Publisher<Object> publisher = adapter.toPublisher(response);
			return (P) (adapter.isMultiValue() ? Flux.from(publisher) : Mono.from(publisher));
		}
		catch (RuntimeException | Error ex) {
			throw ex;
		}
		catch (Throwable ex) {
			throw new UndeclaredThrowableException(ex, "@DistributedLock method " + invocation.getMethod().getName()
					+ " threw a checked exception instead of returning its result");
		}
	}

	/**
	 * One call's hold of its lock, kept until the method's publisher terminates or is
	 * cancelled.
	 */
	private static final class Hold {

		private final CompletableFuture<@Nullable Object> work = new CompletableFuture<>();

		private volatile @Nullable LockHandle lock;

		private volatile @Nullable CompletableFuture<@Nullable Object> released;

		/**
		 * Acquires the lock and calls the method under it on this thread, where
		 * {@link LockHandle#current()} finds the lock while the method builds its
		 * publisher. A method that throws (or returns {@code null}) releases the lock at
		 * once.
		 * @return the method's publisher
		 * @throws LockException if the lock could not be acquired, or the method threw it
		 */
		Object call(LockTemplate template, LockRequest request, MethodInvocation invocation) {
			AtomicReference<@Nullable Object> publisher = new AtomicReference<>();
			this.released = template.executeAsync(request, (lock) -> {
				this.lock = lock;
				publisher.set(proceed(invocation));
				return this.work;
			});
			return Objects.requireNonNull(publisher.get());
		}

		/**
		 * Whether the lock was acquired: a {@link LockException} after that is the
		 * method's own.
		 */
		boolean isAcquired() {
			return this.lock != null;
		}

		/**
		 * The method's {@code Mono}, with the lock in its context, that ends the hold
		 * when it terminates or is cancelled and signals its outcome once the lock is
		 * released.
		 */
		Mono<Object> keep(Mono<Object> value) {
			return value.contextWrite(this::putLock).materialize().flatMap(this::end).doOnCancel(this::cancel);
		}

		/**
		 * The method's {@code Flux}, with the lock in its context, that ends the hold
		 * when it terminates or is cancelled and terminates itself once the lock is
		 * released.
		 */
		Flux<Object> keep(Flux<Object> items) {
			return items.contextWrite(this::putLock)
				.onErrorResume(this::fail)
				.concatWith(Mono.defer(() -> complete(null)))
				.doOnCancel(this::cancel);
		}

		private Context putLock(Context context) {
			return context.put(ReactiveLockContext.HANDLE_KEY, Objects.requireNonNull(this.lock));
		}

		/**
		 * Ends the hold of a {@code Mono} that terminated, as its signal says.
		 */
		private Mono<Object> end(Signal<Object> signal) {
			Throwable failure = signal.getThrowable();
			return (failure != null) ? fail(failure) : complete(signal.get());
		}

		/**
		 * Ends the hold of a publisher that completed, optionally with a value.
		 * @return the value, or nothing, once the lock is released, or
		 * {@link dev.zklock.LockLostException} if it was lost and losses are raised
		 */
		private Mono<Object> complete(@Nullable Object value) {
			this.work.complete(value);
			return Mono.fromFuture(released(), true);
		}

		/**
		 * Ends the hold of a publisher that failed.
		 * @return the failure, once the lock is released; a loss of the lock is added to
		 * it as a suppressed exception if losses are raised
		 */
		private Mono<Object> fail(Throwable failure) {
			this.work.completeExceptionally(failure);
			return whenReleased().then(Mono.error(failure));
		}

		/**
		 * Ends the hold of a cancelled publisher: nobody awaits its outcome.
		 */
		private void cancel() {
			this.work.cancel(false);
		}

		/**
		 * Completes once the lock is released, whatever the outcome of the work.
		 */
		private Mono<Void> whenReleased() {
			return Mono.fromFuture(released().handle((value, failure) -> null), true).then();
		}

		private CompletableFuture<@Nullable Object> released() {
			return Objects.requireNonNull(this.released);
		}

	}

}
