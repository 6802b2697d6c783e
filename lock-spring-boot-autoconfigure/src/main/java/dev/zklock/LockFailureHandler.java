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
	 * Handles a lock that could not be acquired. The method did not run.
	 * @param failure why the lock could not be acquired
	 * @param method the annotated method
	 * @param arguments the arguments of the call
	 * @return what the call returns instead: {@code null} or an instance of the method's
	 * return type (ignored for {@code void})
	 * @throws Throwable what the call throws instead
	 */
	@Nullable Object handleFailure(LockException failure, Method method, @Nullable Object[] arguments) throws Throwable;

}
