package dev.zklock.interceptor;

import java.lang.reflect.Method;

import org.jspecify.annotations.Nullable;

/**
 * The root object of a key expression: {@code #root.method}, {@code #root.methodName},
 * {@code #root.args} and {@code #root.target}.
 */
final class LockExpressionRoot {

	private final Method method;

	private final @Nullable Object[] args;

	private final @Nullable Object target;

	LockExpressionRoot(Method method, @Nullable Object[] args, @Nullable Object target) {
		this.method = method;
		this.args = args;
		this.target = target;
	}

	/**
	 * The invoked method.
	 * @return the method
	 */
	public Method getMethod() {
		return this.method;
	}

	/**
	 * The name of the invoked method.
	 * @return the method name
	 */
	public String getMethodName() {
		return this.method.getName();
	}

	/**
	 * The arguments of the invocation.
	 * @return the arguments
	 */
	public @Nullable Object[] getArgs() {
		return this.args;
	}

	/**
	 * The object the method is invoked on.
	 * @return the target, or {@code null}
	 */
	public @Nullable Object getTarget() {
		return this.target;
	}

}
