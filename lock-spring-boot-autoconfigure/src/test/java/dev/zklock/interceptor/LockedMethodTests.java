package dev.zklock.interceptor;

import java.io.IOException;
import java.time.Duration;
import java.util.List;

import dev.zklock.LockTimeoutException;
import dev.zklock.zookeeper.AcquiredLock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * An annotated method runs under the lock of its key: nested calls on the same key
 * reenter, its exceptions reach the caller unchanged, and an annotation on an interface
 * method applies to the implementation.
 */
class LockedMethodTests extends AbstractDistributedLockInterceptorTests {

	@Test
	void methodRunsUnderTheLockOfItsKey() {
		this.contextRunner.run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			AcquiredLock held = otherProcess.acquire("order:7", Duration.ofSeconds(5));
			try {
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> orders.payQuickly("7"))
					.withMessageContaining("'order:7'");
				assertThat(orders.invocationCount()).isZero();
				assertThat(orders.payQuickly("8")).isEqualTo("order:8");
			}
			finally {
				held.release();
			}
			// once ZooKeeper has applied the other process's release
			await().ignoreException(LockTimeoutException.class)
				.untilAsserted(() -> assertThat(orders.payQuickly("7")).isEqualTo("order:7"));
		});
	}

	@Test
	void nestedCallsOnTheSameKeyReenter() {
		this.contextRunner.run((context) -> {
			OuterService outer = context.getBean(OuterService.class);
			List<Long> tokens = outer.outer("shared");
			assertThat(tokens).hasSize(2);
			assertThat(tokens.get(0)).isEqualTo(tokens.get(1)).isPositive();
		});
	}

	@Test
	void exceptionsOfTheMethodReachTheCallerUnchangedAndTheLockIsReleased() {
		this.contextRunner.run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			IOException failure = new IOException("disk full");
			assertThatExceptionOfType(IOException.class).isThrownBy(() -> orders.fail("x", failure)).isSameAs(failure);
			otherProcess.acquire("failing:x", Duration.ofSeconds(10)).release();
		});
	}

	@Test
	void annotationOnAnInterfaceMethodApplies() {
		this.contextRunner.run((context) -> {
			Greeter greeter = context.getBean(Greeter.class);
			assertThat(greeter.greet("ann")).isEqualTo("hello ann under greeting:ann");
		});
	}

}
