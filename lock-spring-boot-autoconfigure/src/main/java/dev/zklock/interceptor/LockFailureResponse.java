package dev.zklock.interceptor;

import java.lang.reflect.Method;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;

import dev.zklock.DistributedLock;
import dev.zklock.LockException;
import dev.zklock.LockFailureHandler;
import dev.zklock.LockTimeoutException;
import dev.zklock.OnLockFailure;
import org.aopalliance.intercept.MethodInvocation;
import org.apache.commons.logging.Log;
import org.apache.commons.logging.LogFactory;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.core.KotlinDetector;
import org.springframework.core.MethodParameter;
import org.springframework.util.ClassUtils;
import org.springframework.util.ReflectionUtils;
import org.springframework.util.StringUtils;

/**
 * What a {@link DistributedLock} method's call does instead of running when its lock
 * cannot be acquired, as its annotation chose: throw, skip, call a fallback method, or
 * ask a {@link LockFailureHandler}.
 */
sealed interface LockFailureResponse {

	/**
	 * Answers a call whose lock could not be acquired.
	 * @param failure why the lock could not be acquired
	 * @param invocation the call, which must not proceed
	 * @return what the call returns
	 * @throws Throwable what the call throws
	 */
	@Nullable Object respond(LockException failure, MethodInvocation invocation) throws Throwable;

	/**
	 * The response an annotation chose for a method.
	 * @param annotation the method's annotation
	 * @param method the annotated method
	 * @param beanFactory where failure handlers are found, or {@code null} if there is
	 * none
	 * @return the response
	 * @throws IllegalStateException if the choice is contradictory or cannot apply
	 */
	static LockFailureResponse of(DistributedLock annotation, Method method, @Nullable BeanFactory beanFactory) {
		List<String> chosen = new ArrayList<>();
		if (annotation.onFailure() == OnLockFailure.SKIP) {
			chosen.add("onFailure = SKIP");
		}
		if (StringUtils.hasText(annotation.fallback())) {
			chosen.add("fallback = \"" + annotation.fallback() + "\"");
		}
		if (StringUtils.hasText(annotation.failureHandler())) {
			chosen.add("failureHandler = \"" + annotation.failureHandler() + "\"");
		}
		if (chosen.size() > 1) {
			throw invalid(method, String.join(", ", chosen), "chooses " + String.join(" and ", chosen) + "; choose one",
					"Keep one of onFailure, fallback and failureHandler.");
		}
		LockedResult result = LockedResult.of(method);
		if (annotation.onFailure() == OnLockFailure.SKIP) {
			return Skip.of(method, result);
		}
		if (StringUtils.hasText(annotation.fallback())) {
			return Fallback.of(annotation.fallback(), method);
		}
		if (StringUtils.hasText(annotation.failureHandler())) {
			return Handler.of(annotation.failureHandler(), method, beanFactory);
		}
		return new Rethrow(result);
	}

	private static InvalidLockAnnotationException invalid(Method method, String attribute, String problem, String fix) {
		return LockSpecSource.invalid(method, attribute,
				"@DistributedLock on " + LockSpecSource.describe(method) + " " + problem, fix, null);
	}

	/**
	 * Throws the lock exception, or returns a result failed with it for asynchronous
	 * methods.
	 *
	 * @param result what the method returns
	 */
	record Rethrow(LockedResult result) implements LockFailureResponse {

		@Override
		public @Nullable Object respond(LockException failure, MethodInvocation invocation) {
			return switch (this.result.kind()) {
				case VALUE -> throw failure;
				case COMPLETION_STAGE -> CompletableFuture.failedFuture(failure);
				case REACTIVE, SUSPENDING -> ReactiveLocking.error(this.result.reactiveAdapter(), failure);
			};
		}

	}

	/**
	 * Returns nothing: {@code null}, an empty {@code Optional}, or an asynchronous result
	 * completed with nothing ({@code null} from a suspend function). Each skipped call is
	 * logged in one line: at debug level when another holder kept the lock, which is what
	 * skipping is for, and as a warning when the lock could not be had for another reason
	 * (ZooKeeper unreachable, say), which would otherwise skip every call in silence.
	 *
	 * @param result what the method returns
	 * @param value what a skipped call of a method returning a plain value returns
	 */
	record Skip(LockedResult result, @Nullable Object value) implements LockFailureResponse {

		static Skip of(Method method, LockedResult result) {
			if (result.kind() == LockedResult.Kind.SUSPENDING) {
				MethodParameter returned = new MethodParameter(method, -1);
				if (returned.getParameterType() != void.class && !returned.isOptional()) {
					throw invalid(method, "onFailure",
							"cannot skip on failure: it is a suspend function whose result, a "
									+ returned.getParameterType().getName()
									+ ", is not nullable, and a skipped call returns null; declare the result "
									+ "nullable or use a fallback",
							"Declare the result nullable (String? rather than String), or name a fallback method "
									+ "instead of onFailure = SKIP.");
				}
				return new Skip(result, null);
			}
			Class<?> returnType = method.getReturnType();
			if (returnType.isPrimitive() && returnType != void.class) {
				throw invalid(method, "onFailure",
						"cannot skip on failure: it returns a " + returnType
								+ ", which has no empty value; return a wrapper type or use a fallback",
						"Return a wrapper type (Integer rather than int) or an Optional, or name a fallback method "
								+ "instead of onFailure = SKIP.");
			}
			if (result.adapter() != null && !result.adapter().supportsEmpty()) {
				throw invalid(method, "onFailure",
						"cannot skip on failure: it returns a " + returnType.getName()
								+ ", which must emit a value and cannot complete empty; return a type that can, "
								+ "or use a fallback",
						"Return a type that can complete empty (Maybe rather than Single, Mono rather than a "
								+ "required value), or name a fallback method instead of onFailure = SKIP.");
			}
			return new Skip(result, (returnType == Optional.class) ? Optional.empty() : null);
		}

		private static final Log logger = LogFactory.getLog(Skip.class);

		@Override
		public @Nullable Object respond(LockException failure, MethodInvocation invocation) {
			if (failure instanceof LockTimeoutException) {
				if (logger.isDebugEnabled()) {
					logger.debug(
							"Skipped " + LockSpecSource.describe(invocation.getMethod()) + ": " + failure.getMessage());
				}
			}
			else {
				logger.warn("Skipped " + LockSpecSource.describe(invocation.getMethod()) + ": " + failure.getMessage());
			}
			return switch (this.result.kind()) {
				case VALUE -> this.value;
				case COMPLETION_STAGE -> CompletableFuture.completedFuture(null);
				case REACTIVE, SUSPENDING -> ReactiveLocking.empty(this.result.reactiveAdapter());
			};
		}

	}

	/**
	 * Calls a method of the same bean with the call's arguments, and the lock exception
	 * when the method takes it. The fallback of a Kotlin suspend function is a suspend
	 * function, which takes the lock exception before its continuation and is called as
	 * Spring's proxies call one, as a {@code Mono} of its result.
	 *
	 * @param method the fallback method, accessible
	 * @param takesFailure whether the method takes the lock exception last
	 */
	record Fallback(Method method, boolean takesFailure) implements LockFailureResponse {

		static Fallback of(String name, Method annotated) {
			boolean suspending = KotlinDetector.isSuspendingFunction(annotated);
			Class<?>[] parameters = valueParameterTypes(annotated);
			Class<?> targetClass = annotated.getDeclaringClass();
			String fix = "Declare the fallback method in the annotated method's class, with its parameters (optionally "
					+ "followed by a LockException) and its return type" + (suspending ? ", as a suspend function" : "")
					+ ", or correct the name.";
			for (Method candidate : ReflectionUtils.getUniqueDeclaredMethods(targetClass)) {
				if (candidate.getName().equals(name) && KotlinDetector.isSuspendingFunction(candidate) == suspending
						&& takesArgumentsOf(valueParameterTypes(candidate), parameters)) {
					if (!returnsWhatIsExpected(candidate, annotated)) {
						throw invalid(annotated, "fallback",
								"names fallback " + LockSpecSource.describe(candidate) + ", which returns "
										+ resultType(candidate).getName() + " where " + resultType(annotated).getName()
										+ " is expected",
								fix);
					}
					ReflectionUtils.makeAccessible(candidate);
					return new Fallback(candidate, valueParameterTypes(candidate).length > parameters.length);
				}
			}
			String expected = Arrays.stream(parameters)
				.map(Class::getSimpleName)
				.reduce((a, b) -> a + ", " + b)
				.orElse("");
			throw invalid(annotated, "fallback",
					"names fallback '" + name + "', but " + targetClass.getName() + " has no "
							+ (suspending ? "suspend function " : "method ") + name + "(" + expected + ") or " + name
							+ "(" + expected + (expected.isEmpty() ? "" : ", ") + "LockException)",
					fix);
		}

		/**
		 * The types of the parameters a caller passes: a suspend function's without its
		 * continuation.
		 */
		private static Class<?>[] valueParameterTypes(Method method) {
			Class<?>[] parameters = method.getParameterTypes();
			return KotlinDetector.isSuspendingFunction(method) ? Arrays.copyOf(parameters, parameters.length - 1)
					: parameters;
		}

		/**
		 * What a method returns to its caller: a suspend function's result type
		 * ({@code void} for {@code Unit}), not the {@code Object} of its Java signature.
		 */
		private static Class<?> resultType(Method method) {
			return new MethodParameter(method, -1).getParameterType();
		}

		private static boolean takesArgumentsOf(Class<?>[] candidateParameters, Class<?>[] parameters) {
			if (candidateParameters.length == parameters.length) {
				return Arrays.equals(candidateParameters, parameters);
			}
			return candidateParameters.length == parameters.length + 1
					&& Arrays.equals(Arrays.copyOf(candidateParameters, parameters.length), parameters)
					&& candidateParameters[parameters.length].isAssignableFrom(LockException.class);
		}

		private static boolean returnsWhatIsExpected(Method candidate, Method annotated) {
			if (resultType(annotated) == void.class) {
				return resultType(candidate) == void.class;
			}
			return ClassUtils.isAssignable(resultType(annotated), resultType(candidate));
		}

		/**
		 * Calls the fallback; a suspend function's as Spring's proxies call the target,
		 * which returns a {@code Mono} of its result, started in the context of the
		 * caller's continuation.
		 */
		@Override
		public @Nullable Object respond(LockException failure, MethodInvocation invocation) throws Throwable {
			Object[] arguments = invocation.getArguments();
			if (this.takesFailure) {
				// Before a suspend function's continuation, which stays last
				int position = KotlinDetector.isSuspendingFunction(this.method) ? arguments.length - 1
						: arguments.length;
				Object[] withFailure = new Object[arguments.length + 1];
				System.arraycopy(arguments, 0, withFailure, 0, position);
				withFailure[position] = failure;
				System.arraycopy(arguments, position, withFailure, position + 1, arguments.length - position);
				arguments = withFailure;
			}
			return AopUtils.invokeJoinpointUsingReflection(invocation.getThis(), this.method, arguments);
		}

	}

	/**
	 * Asks a {@link LockFailureHandler} bean.
	 *
	 * @param beanName the handler's bean name
	 * @param beanFactory where the handler is found
	 */
	record Handler(String beanName, BeanFactory beanFactory) implements LockFailureResponse {

		static Handler of(String beanName, Method method, @Nullable BeanFactory beanFactory) {
			if (beanFactory == null || !beanFactory.containsBean(beanName)) {
				throw invalid(method, "failureHandler",
						"names failureHandler '" + beanName + "', but there is no such bean",
						"Name a bean that implements " + LockFailureHandler.class.getName() + ".");
			}
			if (!beanFactory.isTypeMatch(beanName, LockFailureHandler.class)) {
				throw invalid(method, "failureHandler",
						"names failureHandler '" + beanName + "', which is not a " + LockFailureHandler.class.getName(),
						"Name a bean that implements " + LockFailureHandler.class.getName() + ".");
			}
			return new Handler(beanName, beanFactory);
		}

		/**
		 * Asks the handler. A suspend function's handler gets the arguments without the
		 * continuation and returns the function's result, which the call returns as a
		 * {@code Mono} for Spring's proxy to await.
		 */
		@Override
		public @Nullable Object respond(LockException failure, MethodInvocation invocation) throws Throwable {
			Method method = invocation.getMethod();
			boolean suspending = KotlinDetector.isSuspendingFunction(method);
			Object[] arguments = invocation.getArguments();
			Object result = this.beanFactory.getBean(this.beanName, LockFailureHandler.class)
				.handleFailure(failure, method,
						suspending ? Arrays.copyOf(arguments, arguments.length - 1) : arguments);
			MethodParameter returned = new MethodParameter(method, -1);
			Class<?> returnType = returned.getParameterType();
			if (returnType == void.class) {
				return suspending ? ReactiveLocking.valueOf(null) : null;
			}
			boolean nullable = suspending ? returned.isOptional() : !returnType.isPrimitive();
			if ((result == null && !nullable)
					|| (result != null && !ClassUtils.isAssignableValue(returnType, result))) {
				throw new IllegalStateException("LockFailureHandler '" + this.beanName + "' returned "
						+ ((result != null) ? "a " + result.getClass().getName() : "null") + " for "
						+ LockSpecSource.describe(method) + ", which returns "
						+ (suspending && !nullable ? "a non-null " : "") + returnType.getName());
			}
			return suspending ? ReactiveLocking.valueOf(result) : result;
		}

	}

}
