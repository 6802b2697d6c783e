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

/**
 * Locks around Reactor results: the lock is acquired when the result is subscribed to, on
 * a thread that may block ({@link Schedulers#boundedElastic()}), the method is called
 * under it, and the lock is released when the method's publisher terminates or is
 * cancelled. The result terminates after the release, with
 * {@link dev.zklock.LockLostException} if the lock was lost meanwhile and the lost-lock
 * policy raises losses. The method's publisher finds the lock in its Reactor
 * {@code Context} ({@link ReactiveLockContext}). Loaded only for methods that return
 * {@code Mono} or {@code Flux}, so Reactor stays optional.
 */
final class ReactiveLocking {

	private ReactiveLocking() {
	}

	/**
	 * A {@code Mono} that locks, calls the method, and signals the method's value or
	 * error after the lock is released (failing with {@link dev.zklock.LockLostException}
	 * instead of the value if the lock was lost meanwhile and the lost-lock policy raises
	 * losses). Cancelling it cancels the method's {@code Mono} and releases the lock.
	 */
	static Mono<Object> mono(LockTemplate template, LockRequest request, MethodInvocation invocation,
			LockFailureResponse onFailure) {
		return Mono.defer(
				() -> ReactiveLocking.<Mono<Object>>lockAndCall(template, request, invocation, onFailure, Hold::keep))
			.subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * A {@code Flux} that locks, calls the method, passes on the method's items, and
	 * completes or fails after the lock is released (failing with
	 * {@link dev.zklock.LockLostException} after the items if the lock was lost meanwhile
	 * and the lost-lock policy raises losses). Cancelling it cancels the method's
	 * {@code Flux} and releases the lock.
	 */
	static Flux<Object> flux(LockTemplate template, LockRequest request, MethodInvocation invocation,
			LockFailureResponse onFailure) {
		return Flux.defer(
				() -> ReactiveLocking.<Flux<Object>>lockAndCall(template, request, invocation, onFailure, Hold::keep))
			.subscribeOn(Schedulers.boundedElastic());
	}

	/**
	 * Locks and calls the method, keeping the lock until the method's publisher
	 * terminates or is cancelled; a lock that cannot be had gets the failure response.
	 */
	private static <P extends Publisher<Object>> P lockAndCall(LockTemplate template, LockRequest request,
			MethodInvocation invocation, LockFailureResponse onFailure, BiFunction<Hold, P, P> keep) {
		Hold hold = new Hold();
		P publisher;
		try {
			publisher = hold.call(template, request, invocation);
		}
		catch (LockException ex) {
			if (hold.isAcquired()) {
				throw ex;
			}
			return respond(onFailure, ex, invocation);
		}
		return keep.apply(hold, publisher);
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
		<P> P call(LockTemplate template, LockRequest request, MethodInvocation invocation) {
			AtomicReference<@Nullable P> publisher = new AtomicReference<>();
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
