package dev.zklock.interceptor;

import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.List;

import org.jspecify.annotations.Nullable;

import org.springframework.context.expression.MethodBasedEvaluationContext;
import org.springframework.core.DefaultParameterNameDiscoverer;
import org.springframework.core.ParameterNameDiscoverer;
import org.springframework.expression.BeanResolver;
import org.springframework.expression.EvaluationException;
import org.springframework.expression.spel.ExpressionState;
import org.springframework.expression.spel.SpelNode;
import org.springframework.expression.spel.ast.OpPlus;
import org.springframework.expression.spel.standard.SpelExpression;
import org.springframework.util.ObjectUtils;

/**
 * Evaluates a {@link LockSpec}'s key expression against one invocation. Parameters are
 * variables by name and as {@code #p0}/{@code #a0}; beans resolve as {@code @name}. An
 * expression that yields a collection or an array names several keys.
 */
final class LockKeyEvaluator {

	private final ParameterNameDiscoverer parameterNameDiscoverer = new DefaultParameterNameDiscoverer();

	private final @Nullable BeanResolver beanResolver;

	LockKeyEvaluator(@Nullable BeanResolver beanResolver) {
		this.beanResolver = beanResolver;
	}

	/**
	 * Evaluates the key of an invocation.
	 * @param spec the method's lock spec
	 * @param args the invocation's arguments
	 * @param target the target object, or {@code null}
	 * @return the non-blank keys: one, or several when the expression yields a collection
	 * or an array
	 * @throws IllegalArgumentException if the expression fails, a method it calls throws,
	 * or it yields no usable key (among them a value whose {@code toString()} throws, and
	 * one that concatenates {@code null})
	 */
	List<String> resolveKeys(LockSpec spec, @Nullable Object[] args, @Nullable Object target) {
		LockExpressionRoot root = new LockExpressionRoot(spec.method(), args, target);
		MethodBasedEvaluationContext context = new MethodBasedEvaluationContext(root, spec.method(), args,
				this.parameterNameDiscoverer);
		if (this.beanResolver != null) {
			context.setBeanResolver(this.beanResolver);
		}
		for (String variable : spec.variables()) {
			if (context.lookupVariable(variable) == null) {
				throw new IllegalArgumentException(spec.describe() + " reads '#" + variable + "', which is null");
			}
		}
		Object value;
		try {
			value = spec.keyExpression().getValue(context);
		}
		catch (EvaluationException ex) {
			throw new IllegalArgumentException(spec.describe() + " failed: " + ex.getMessage(), ex);
		}
		catch (RuntimeException ex) {
			// SpEL rethrows unchecked exceptions of the methods it calls as they are
			throw new IllegalArgumentException(spec.describe() + " failed: a method it calls threw " + ex, ex);
		}
		List<String> keys = validate(spec, value);
		rejectNullConcatenated(spec, context, keys);
		return keys;
	}

	/**
	 * Refuses keys that a string concatenation made with a {@code null} operand, such as
	 * {@code 'account:' + #account.id} with a {@code null} id, which SpEL turns into
	 * {@code account:null}: a lock on the wrong key. Only keys that hold the text
	 * {@code null} are looked at, by evaluating the operands of each concatenation again;
	 * an operand that fails on its own proves nothing.
	 */
	private void rejectNullConcatenated(LockSpec spec, MethodBasedEvaluationContext context, List<String> keys) {
		if (keys.stream().noneMatch((key) -> key.contains("null"))
				|| !(spec.keyExpression() instanceof SpelExpression expression)) {
			return;
		}
		String operand = nullOperand(expression.getAST(), new ExpressionState(context));
		if (operand != null) {
			throw new IllegalArgumentException(spec.describe() + " concatenates '" + operand + "', which is null");
		}
	}

	private static @Nullable String nullOperand(SpelNode node, ExpressionState state) {
		if (node instanceof OpPlus && node.getChildCount() == 2) {
			for (int i = 0; i < 2; i++) {
				SpelNode operand = node.getChild(i);
				try {
					if (operand.getValue(state) == null) {
						return operand.toStringAST();
					}
				}
				catch (RuntimeException ex) {
					// evaluated on its own, out of its place: tells nothing
				}
			}
		}
		for (int i = 0; i < node.getChildCount(); i++) {
			String operand = nullOperand(node.getChild(i), state);
			if (operand != null) {
				return operand;
			}
		}
		return null;
	}

	private List<String> validate(LockSpec spec, @Nullable Object value) {
		if (value == null) {
			throw new IllegalArgumentException(spec.describe() + " evaluated to null");
		}
		if (value instanceof Collection<?> || value.getClass().isArray()) {
			List<Object> values = (value instanceof Collection<?> collection) ? new ArrayList<>(collection)
					: Arrays.asList(ObjectUtils.toObjectArray(value));
			if (values.isEmpty()) {
				throw new IllegalArgumentException(spec.describe() + " evaluated to no keys");
			}
			List<String> keys = new ArrayList<>(values.size());
			for (Object element : values) {
				if (element == null) {
					throw new IllegalArgumentException(spec.describe() + " evaluated to keys that include null");
				}
				keys.add(validKey(spec, element));
			}
			return keys;
		}
		return List.of(validKey(spec, value));
	}

	private String validKey(LockSpec spec, Object value) {
		String key;
		try {
			key = value.toString();
		}
		catch (RuntimeException ex) {
			throw new IllegalArgumentException(
					spec.describe() + " evaluated to a " + value.getClass().getName() + " whose toString() threw " + ex,
					ex);
		}
		if (key == null) {
			throw new IllegalArgumentException(
					spec.describe() + " evaluated to a " + value.getClass().getName() + " whose toString() is null");
		}
		if (key.isBlank()) {
			throw new IllegalArgumentException(spec.describe() + " evaluated to a blank key");
		}
		return key;
	}

}
