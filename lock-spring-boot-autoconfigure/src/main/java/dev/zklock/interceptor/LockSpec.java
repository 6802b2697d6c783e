package dev.zklock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Set;

import dev.zklock.LockType;
import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;

/**
 * A {@link dev.zklock.DistributedLock} annotation as parsed once for a method.
 *
 * @param method the annotated method, as declared on the target class
 * @param keyExpression the parsed key expression
 * @param variables the variables the key expression reads, such as {@code orderId} for
 * {@code #orderId}
 * @param type the lock type
 * @param permits the number of permits of a semaphore, {@code 1} for other types
 * @param waitTime the wait time, or {@code null} for the configured default
 * @param holdAtLeast the minimum hold time
 * @param async whether the method returns a {@code CompletionStage} whose completion ends
 * the hold
 * @param onFailure what a call does instead of running when the lock cannot be acquired
 * @param name what the lock is called in observations
 */
record LockSpec(Method method, Expression keyExpression, Set<String> variables, LockType type, int permits,
		@Nullable Duration waitTime, Duration holdAtLeast, LockedResult result, LockFailureResponse onFailure,
		String name) {

	String describe() {
		return "@DistributedLock key expression '" + this.keyExpression.getExpressionString() + "' on "
				+ LockSpecSource.describe(this.method);
	}

}
