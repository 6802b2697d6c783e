package dev.zklock.interceptor;

import java.util.Arrays;
import java.util.List;

import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * Key expressions see the parameters by name and by position, beans and the root object,
 * and a key they cannot make is refused at the call, naming the method and the
 * expression, without running the method or leaving a lock held.
 */
class KeyExpressionEvaluationTests extends AbstractDistributedLockInterceptorTests {

	@Test
	void keyExpressionsSeeParametersByNameAndPositionBeansAndTheRoot() {
		this.contextRunner.run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			assertThat(orders.pay("42")).isEqualTo("order:42");
			assertThat(orders.byPosition("a", "b")).isEqualTo("a|b");
			assertThat(orders.byBean()).isEqualTo("prefix-x");
			assertThat(orders.byRoot()).isEqualTo("byRoot");
			assertThat(orders.byProperty(new Order("c-7"))).isEqualTo("customer:c-7");
			assertThat(orders.byProperty(new Order("null"))).as("a key that holds null as text")
				.isEqualTo("customer:null");
		});
	}

	@Test
	void nullKeyIsRejectedNamingTheMethodAndExpressionWithoutRunningTheMethod() {
		this.contextRunner.run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			assertThatIllegalArgumentException().isThrownBy(() -> orders.pay(null))
				.withMessageContaining("'order:' + #orderId")
				.withMessageContaining("OrderService.pay(String)")
				.withMessageContaining("reads '#orderId', which is null")
				.withMessageNotContaining("-parameters");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.byNullBean())
				.withMessageContaining("'@nullKey.value()'")
				.withMessageContaining("evaluated to null");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.bare(" ")).withMessageContaining("blank key");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.bare(List.of()))
				.withMessageContaining("evaluated to no keys");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.bare(Arrays.asList("a", null)))
				.withMessageContaining("keys that include null");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.bare(new String[] { "a", " " }))
				.withMessageContaining("blank key");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.bare(new NullText()))
				.withMessageContaining("'#orderId'")
				.withMessageContaining("OrderService.bare(Object)")
				.withMessageContaining("toString() is null");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.bare(List.of("a", new NullText())))
				.withMessageContaining("toString() is null");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.byProperty(null))
				.withMessageContaining("'customer:' + #order.customerId")
				.withMessageContaining("reads '#order', which is null");
			assertThatIllegalArgumentException().isThrownBy(() -> orders.byProperty(new Order(null)))
				.withMessageContaining("'customer:' + #order.customerId")
				.withMessageContaining("OrderService.byProperty(Order)")
				.withMessageContaining("concatenates '#order.customerId', which is null");
			assertThat(orders.invocationCount()).isZero();
			assertThat(context.getBean(ZooKeeperLockRegistry.class).keysInUse()).isZero();
		});
	}

	@Test
	void keyExpressionWhoseMethodThrowsIsRejectedNamingTheMethodAndExpressionWithoutRunningTheMethod() {
		this.contextRunner.run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			assertThatIllegalArgumentException().isThrownBy(() -> orders.bySuffix("abc"))
				.withMessageContaining("'#id.substring(5)'")
				.withMessageContaining("OrderService.bySuffix(String)")
				.withCauseInstanceOf(StringIndexOutOfBoundsException.class);
			assertThat(orders.invocationCount()).isZero();
			assertThat(context.getBean(ZooKeeperLockRegistry.class).keysInUse()).isZero();
			assertThat(orders.bySuffix("order-12")).isEqualTo("-12");
		});
	}

	static class NullText {

		@Override
		public @Nullable String toString() {
			return null;
		}

	}

}
