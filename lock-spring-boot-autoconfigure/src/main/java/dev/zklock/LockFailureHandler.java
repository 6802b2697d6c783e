package dev.zklock;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * Decides what a {@link DistributedLock} method whose lock could not be acquired returns
 * or throws instead of running. Named by bean name in
 * {@link DistributedLock#failureHandler()}.
 *
 * <pre class="code">
 * &#64;Bean
 * LockFailureHandler busyQuote() {
 *     return (failure, method, arguments) -&gt; Quote.busy();
 * }
 * </pre>
 */
@FunctionalInterface
public interface LockFailureHandler {

	/**
	 * Handles a lock that could not be acquired. The method did not run. For a Kotlin
	 * suspend function, the arguments leave out the continuation, and the handler returns
	 * the function's result itself (not a publisher), {@code null} only where the result
	 * is nullable.
	 * @param failure why the lock could not be acquired
	 * @param method the annotated method
	 * @param arguments the arguments of the call (for a suspend function, without the
	 * continuation)
	 * @return what the call returns instead: {@code null} or an instance of the method's
	 * return type (ignored for {@code void} and {@code Unit})
	 * @throws Throwable what the call throws instead
	 */
	@Nullable Object handleFailure(LockException failure, Method method, @Nullable Object[] arguments) throws Throwable;

}
