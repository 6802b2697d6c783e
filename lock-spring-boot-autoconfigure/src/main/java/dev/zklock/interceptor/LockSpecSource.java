package dev.zklock.interceptor;

import java.lang.reflect.Method;
import java.lang.reflect.Modifier;
import java.time.Duration;
import java.util.Arrays;
import java.util.LinkedHashSet;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

import dev.zklock.DistributedLock;
import dev.zklock.LockType;
import org.jspecify.annotations.Nullable;

import org.springframework.aop.support.AopUtils;
import org.springframework.beans.factory.BeanFactory;
import org.springframework.boot.convert.DurationStyle;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.MethodClassKey;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.core.annotation.AnnotatedElementUtils;
import org.springframework.expression.Expression;
import org.springframework.expression.ExpressionParser;
import org.springframework.expression.ParseException;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.VariableReference;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.expression.spel.standard.SpelExpressionParser;
import org.springframework.util.ClassUtils;
import org.springframework.util.StringUtils;
import org.springframework.util.StringValueResolver;

/**
 * Parses {@link DistributedLock} annotations into {@link LockSpec}s, once per method and
 * target class. A malformed annotation fails with a message naming the method.
 */
final class LockSpecSource {

	private static final String DURATION_FIX = "Write a duration that is not negative, such as '500ms', '5s' or "
			+ "'PT5S', or a ${...} placeholder that resolves to one; leave it empty for the default.";

	private final ExpressionParser parser = new SpelExpressionParser();

	private final Map<MethodClassKey, Optional<LockSpec>> specs = new ConcurrentHashMap<>(64);

	private final @Nullable StringValueResolver embeddedValueResolver;

	private final ParameterNameDiscoverer parameterNameDiscoverer = new DefaultParameterNameDiscoverer();

	private final @Nullable BeanFactory beanFactory;

	LockSpecSource(@Nullable StringValueResolver embeddedValueResolver, @Nullable BeanFactory beanFactory) {
		this.embeddedValueResolver = embeddedValueResolver;
		this.beanFactory = beanFactory;
	}

	/**
	 * The lock spec of a method invoked on a target class.
	 * @param method the invoked method, possibly declared by an interface
	 * @param targetClass the class of the target, or {@code null}
	 * @return the spec, or {@code null} if the method carries no annotation
	 * @throws IllegalStateException if the annotation is malformed
	 */
	@Nullable LockSpec getLockSpec(Method method, @Nullable Class<?> targetClass) {
		return this.specs
			.computeIfAbsent(new MethodClassKey(method, targetClass),
					(key) -> Optional.ofNullable(parse(AopUtils.getMostSpecificMethod(method, targetClass))))
			.orElse(null);
	}

	private @Nullable LockSpec parse(Method method) {
		DistributedLock annotation = AnnotatedElementUtils.findMergedAnnotation(method, DistributedLock.class);
		if (annotation == null) {
			return null;
		}
		if (Modifier.isPrivate(method.getModifiers()) || Modifier.isFinal(method.getModifiers())
				|| Modifier.isStatic(method.getModifiers())) {
			throw invalid(method, "the method's modifiers",
					"@DistributedLock on " + describe(method) + " cannot apply: a proxy cannot intercept a private, "
							+ "final or static method, so the method would run without its lock",
					"Make the method neither private, final nor static, so that the proxy intercepts it, or lock "
							+ "inside it with LockTemplate.",
					null);
		}
		Expression key = parseKey(annotation.key(), method);
		Set<String> variables = variablesOf(key);
		checkVariablesAreParameters(variables, key, method);
		checkPermits(annotation, method);
		Duration holdAtLeast = parseDuration("holdAtLeast", annotation.holdAtLeast(), method);
		return new LockSpec(method, key, variables, annotation.type(), annotation.permits(),
				parseDuration("waitTime", annotation.waitTime(), method),
				(holdAtLeast != null) ? holdAtLeast : Duration.ZERO, LockedResult.of(method),
				LockFailureResponse.of(annotation, method, this.beanFactory), nameOf(annotation, method));
	}

	private String nameOf(DistributedLock annotation, Method method) {
		String name;
		try {
			name = (this.embeddedValueResolver != null)
					? this.embeddedValueResolver.resolveStringValue(annotation.name()) : annotation.name();
		}
		catch (IllegalArgumentException ex) {
			throw invalid(method, "name",
					"@DistributedLock name '" + annotation.name() + "' on " + describe(method) + " does not resolve: "
							+ ex.getMessage(),
					"Define the placeholder's property, or give it a default: ${property:default}.", ex);
		}
		if (StringUtils.hasText(name)) {
			return name.trim();
		}
		Class<?> type = method.getDeclaringClass();
		return (type.isAnonymousClass() ? ClassUtils.getShortName(type) : type.getSimpleName()) + "."
				+ method.getName();
	}

	private Expression parseKey(String key, Method method) {
		if (!StringUtils.hasText(key)) {
			throw invalid(method, "key", "@DistributedLock on " + describe(method) + " has an empty key expression",
					"Set key to a SpEL expression over the method's parameters, such as key = \"'order:' + #orderId\".",
					null);
		}
		try {
			return this.parser.parseExpression(key);
		}
		catch (ParseException ex) {
			throw invalid(method, "key",
					"@DistributedLock key expression '" + key + "' on " + describe(method) + " does not parse: "
							+ ex.getMessage(),
					"Correct the SpEL expression: quote literal text ('order:') and refer to parameters as #name or "
							+ "#p0, such as key = \"'order:' + #orderId\".",
					ex);
		}
	}

	private static Set<String> variablesOf(Expression expression) {
		Set<String> variables = new LinkedHashSet<>();
		if (expression instanceof SpelExpression spel) {
			collectVariables(spel.getAST(), variables);
		}
		variables.removeAll(Set.of("root", "this"));
		return Set.copyOf(variables);
	}

	private static void collectVariables(SpelNode node, Set<String> variables) {
		if (node instanceof VariableReference) {
			variables.add(node.toStringAST().substring(1));
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			collectVariables(node.getChild(i), variables);
		}
	}

	private void checkVariablesAreParameters(Set<String> variables, Expression key, Method method) {
		String[] names = this.parameterNameDiscoverer.getParameterNames(method);
		Set<String> parameters = new LinkedHashSet<>();
		if (names != null) {
			parameters.addAll(Arrays.asList(names));
		}
		for (int i = 0; i < method.getParameterCount(); i++) {
			parameters.add("p" + i);
			parameters.add("a" + i);
		}
		for (String variable : variables) {
			if (!parameters.contains(variable)) {
				throw invalid(method, "key",
						"@DistributedLock key expression '" + key.getExpressionString() + "' on " + describe(method)
								+ " refers to '#" + variable + "', which is not a parameter"
								+ ((names != null) ? " (parameters: " + String.join(", ", names) + ")"
										: "; parameter names are not available, so compile with '-parameters' or refer "
												+ "to parameters as #p0, #p1, ..."),
						"Refer only to the method's parameters: by name (compile with '-parameters') or as #p0, #p1, "
								+ "...; reach beans as @beanName.",
						null);
			}
		}
	}

	private static void checkPermits(DistributedLock annotation, Method method) {
		if (annotation.permits() < 1) {
			throw invalid(method, "permits", "@DistributedLock on " + describe(method) + " asks for "
					+ annotation.permits() + " permits; a semaphore needs at least 1", "Set permits to 1 or more.",
					null);
		}
		if (annotation.permits() != 1 && annotation.type() != LockType.SEMAPHORE) {
			throw invalid(method, "permits",
					"@DistributedLock on " + describe(method) + " asks for " + annotation.permits() + " permits of a "
							+ annotation.type() + " lock; permits apply to type = SEMAPHORE only",
					"Remove permits, or set type = LockType.SEMAPHORE.", null);
		}
	}

	private @Nullable Duration parseDuration(String attribute, String value, Method method) {
		if (!StringUtils.hasText(value)) {
			return null;
		}
		String description = "@DistributedLock " + attribute + " '" + value + "' on " + describe(method);
		Duration duration;
		try {
			String resolved = (this.embeddedValueResolver != null)
					? this.embeddedValueResolver.resolveStringValue(value) : value;
			if (!StringUtils.hasText(resolved)) {
				return null;
			}
			duration = DurationStyle.detectAndParse(resolved.trim());
		}
		catch (IllegalArgumentException ex) {
			throw invalid(method, attribute,
					description + " is not a duration such as '500ms', '5s' or 'PT5S': " + ex.getMessage(),
					DURATION_FIX, ex);
		}
		if (duration.isNegative()) {
			throw invalid(method, attribute, description + " must not be negative", DURATION_FIX, null);
		}
		return duration;
	}

	static InvalidLockAnnotationException invalid(Method method, String attribute, String message, String fix,
			@Nullable Throwable cause) {
		return new InvalidLockAnnotationException(describe(method), attribute, message, fix, cause);
	}

	static String describe(Method method) {
		return ClassUtils.getQualifiedMethodName(method) + "(" + StringUtils.arrayToCommaDelimitedString(
				Arrays.stream(method.getParameterTypes()).map(Class::getSimpleName).toArray()) + ")";
	}

}
