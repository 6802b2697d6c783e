package dev.zklock;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.springframework.aot.hint.annotation.Reflective;

/**
 * Runs the annotated method while holding the distributed lock named by {@link #key()}.
 * <p>
 * The lock is acquired before the method starts (and before any transaction the method
 * opens with {@code @Transactional}), and released when it returns or throws, whatever
 * the outcome. The same thread may re-enter a lock it already holds. When the lock cannot
 * be had within {@link #waitTime()}, the method does not run: a
 * {@link LockTimeoutException} is thrown, unless {@link #onFailure()},
 * {@link #fallback()} or {@link #failureHandler()} choose another outcome.
 * <p>
 * A method returning {@code CompletableFuture} or {@code CompletionStage} keeps its lock
 * until the returned result completes; the lock then belongs to the call, not the thread
 * (see {@link LockTemplate#executeAsync}). A method returning a reactive type that
 * Spring's {@code ReactiveAdapterRegistry} adapts (Reactor's {@code Mono} and
 * {@code Flux}, a {@code Publisher}, RxJava's types) takes its lock on subscription and
 * keeps it until the result terminates (a stream after its last item, a single-value type
 * with its value or completion) or is cancelled; this needs Reactor on the class path.
 * Other asynchronous return types ({@code Future}, publishers of types no adapter makes)
 * fail start-up, since their lock would be released before their result completes.
 * <p>
 * A Kotlin {@code suspend} function (with kotlinx-coroutines-reactor and kotlin-reflect
 * on the class path, as Spring's proxies need them to call one) waits for its lock
 * without blocking the caller's thread and keeps it across every suspension point and
 * thread switch until it returns or throws; cancelling the calling coroutine releases it.
 * Its lock belongs to the call, not a thread: a nested locked call of the same key is a
 * new acquisition that waits for it. The function finds its lock with
 * {@code ReactiveLockContext.currentLock().awaitSingle()}.
 *
 * <pre class="code">
 * &#64;DistributedLock(key = "'order:' + #orderId", waitTime = "3s")
 * public Receipt pay(String orderId) { ... }
 * </pre>
 *
 * @see LockTemplate
 * @see LockHandle#current()
 */
@Target({ ElementType.METHOD, ElementType.ANNOTATION_TYPE })
@Retention(RetentionPolicy.RUNTIME)
@Documented
@Reflective(DistributedLockReflectiveProcessor.class)
public @interface DistributedLock {

	/**
	 * SpEL expression for the lock key, evaluated against each invocation. Parameters are
	 * available by name ({@code #orderId}, which needs compilation with
	 * {@code -parameters}) and by position ({@code #p0}, {@code #a0}); beans as
	 * {@code @beanName}; {@code #root.method}, {@code #root.args} and
	 * {@code #root.target} describe the invocation. A literal key is written as a quoted
	 * string: {@code "'nightly-report'"}. The expression must yield a non-blank value;
	 * its {@code toString()} is the key.
	 * @return the key expression
	 */
	String key();

	/**
	 * How long to wait for the lock: a duration such as {@code "500ms"}, {@code "5s"} or
	 * {@code "PT5S"}, or a {@code ${...}} placeholder resolving to one. Empty means the
	 * configured default ({@code distributed-lock.wait-time}); {@code "0"} tries once
	 * without waiting.
	 * @return the wait time
	 */
	String waitTime() default "";

	/**
	 * How long the lock is kept at least, counted from its acquisition, even when the
	 * method returns sooner: a duration such as {@code "30s"}, or a {@code ${...}}
	 * placeholder. With {@code waitTime = "0"} and {@link OnLockFailure#SKIP}, a
	 * {@code @Scheduled} method then runs once per tick across all instances, even on an
	 * instance whose tick comes a little late. A lock kept beyond the call is released in
	 * the background and belongs to the call, not the thread: the method must not ask for
	 * the same key again. Empty means none.
	 * @return the minimum hold time
	 */
	String holdAtLeast() default "";

	/**
	 * What the lock lets other holders of the key do meanwhile: nothing
	 * ({@link LockType#EXCLUSIVE}, the default), read ({@link LockType#READ} and
	 * {@link LockType#WRITE} form a read/write lock), or hold one of {@link #permits()}
	 * ({@link LockType#SEMAPHORE}).
	 * @return the lock type
	 */
	LockType type() default LockType.EXCLUSIVE;

	/**
	 * How many holders a {@link LockType#SEMAPHORE} admits at a time; every holder of the
	 * key must agree. Must stay {@code 1} for the other types.
	 * @return the number of permits
	 */
	int permits() default 1;

	/**
	 * What happens when the lock cannot be acquired (another holder kept it for the wait
	 * time, or ZooKeeper could not be reached): throw the {@link LockException}, or skip
	 * the method. Exclusive with {@link #fallback()} and {@link #failureHandler()}.
	 * @return what happens when the lock cannot be acquired
	 */
	OnLockFailure onFailure() default OnLockFailure.THROW;

	/**
	 * Name of a method of the same bean that is called instead when the lock cannot be
	 * acquired, with the same arguments, and optionally the {@link LockException} as an
	 * extra last parameter (declared as {@code LockException} or a supertype). It must
	 * return what the annotated method returns; it may be private. Checked at start-up.
	 * @return the fallback method's name, or empty for none
	 */
	String fallback() default "";

	/**
	 * Name of a {@link LockFailureHandler} bean that decides what the call returns or
	 * throws when the lock cannot be acquired. Checked at start-up.
	 * @return the handler's bean name, or empty for none
	 */
	String failureHandler() default "";

	/**
	 * What the lock is called in metrics and other observations (the {@code name} tag of
	 * {@code distributed.lock.acquisition} and {@code distributed.lock.hold}); used for
	 * nothing else, so it need not be unique and does not name the lock in ZooKeeper (the
	 * key does). A fixed value or a {@code ${...}} placeholder. Empty means the simple
	 * name of the method's class and the method's name, such as
	 * {@code OrderService.nextNumber}.
	 * @return the name in observations
	 */
	String name() default "";

}
