package dev.zklock;

import reactor.core.publisher.Mono;
import reactor.util.context.ContextView;

/**
 * The lock held by a Reactor pipeline: what {@link LockHandle#current()} is for a thread.
 * A {@link DistributedLock} method that returns a {@code Mono} or a {@code Flux} runs on
 * whichever threads its operators choose, none of which holds the lock, so its handle
 * travels in the Reactor {@code Context} of the method's publisher instead, under
 * {@link #HANDLE_KEY}:
 *
 * <pre class="code">
 * &#64;DistributedLock(key = "'stock:' + #sku")
 * public Mono&lt;Void&gt; restock(String sku, int count) {
 *     return ReactiveLockContext.currentLock()
 *         .flatMap((lock) -&gt; this.stock.write(sku, count, lock.fencingToken()));
 * }
 * </pre>
 *
 * Only code inside the method's publisher sees the handle, not operators the caller adds
 * to the returned result. Nested locked publishers see their own, innermost lock. Needs
 * Reactor on the class path.
 *
 * @see DistributedLock
 */
public final class ReactiveLockContext {

	/**
	 * The key of the held {@link LockHandle} in the Reactor {@code Context} of a locked
	 * method's publisher.
	 */
	public static final Class<LockHandle> HANDLE_KEY = LockHandle.class;

	private ReactiveLockContext() {
	}

	/**
	 * The innermost lock held by the pipeline that subscribes to the returned
	 * {@code Mono}: the lock of the {@link DistributedLock} method whose publisher it is
	 * part of.
	 * @return a {@code Mono} of the held lock, failing with {@link IllegalStateException}
	 * outside the publisher of a locked method
	 */
	public static Mono<LockHandle> currentLock() {
		return Mono.deferContextual(ReactiveLockContext::currentLock);
	}

	private static Mono<LockHandle> currentLock(ContextView context) {
		if (!context.hasKey(HANDLE_KEY)) {
			return Mono.error(new IllegalStateException("The subscribing pipeline holds no distributed lock: "
					+ "ReactiveLockContext.currentLock() works inside the Mono or Flux of a @DistributedLock method"));
		}
		return Mono.just(context.get(HANDLE_KEY));
	}

}
