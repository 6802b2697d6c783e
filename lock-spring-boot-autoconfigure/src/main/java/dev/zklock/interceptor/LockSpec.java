package dev.zklock.interceptor;

import java.lang.reflect.Method;
import java.time.Duration;
import java.util.Set;

import org.jspecify.annotations.Nullable;

import org.springframework.expression.Expression;

/**
 * A {@link dev.zklock.DistributedLock} annotation as parsed once for a method.
 *
 * @param method the annotated method, as declared on the target class
 * @param keyExpression the parsed key expression
 * @param variables the variables the key expression reads, such as {@code orderId} for
 * {@code #orderId}
 * @param waitTime the wait time, or {@code null} for the configured default
 * @param onFailure what a call does instead of running when the lock cannot be acquired
 */
record LockSpec(Method method, Expression keyExpression, Set<String> variables, @Nullable Duration waitTime,
		LockFailureResponse onFailure) {

	String describe() {
		return "@DistributedLock key expression '" + this.keyExpression.getExpressionString() + "' on "
				+ LockSpecSource.describe(this.method);
	}

}
