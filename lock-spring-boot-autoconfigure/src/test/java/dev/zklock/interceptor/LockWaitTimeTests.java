package dev.zklock.interceptor;

import java.time.Duration;

import dev.zklock.LockTimeoutException;
import dev.zklock.testsupport.BusyMachine;
import dev.zklock.zookeeper.AcquiredLock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A locked method waits for its lock as long as its annotation, a placeholder in it or
 * the default says, and without bound when that is beyond the nanosecond range.
 */
class LockWaitTimeTests extends AbstractDistributedLockInterceptorTests {

	@Test
	void waitTimeComesFromTheAnnotationAPlaceholderOrTheDefault() {
		this.contextRunner.withPropertyValues("distributed-lock.wait-time=300ms", "orders.wait=250ms")
			.run((context) -> {
				OrderService orders = context.getBean(OrderService.class);
				AcquiredLock held = otherProcess.acquire("order:9", Duration.ofSeconds(5));
				try {
					assertThat(waitTimeOf(() -> orders.payQuickly("9"))).isEqualTo(Duration.ZERO);
					long start = System.nanoTime();
					assertThat(waitTimeOf(() -> orders.payWithPlaceholderWait("9"))).isEqualTo(Duration.ofMillis(250));
					assertThat(Duration.ofNanos(System.nanoTime() - start)).isBetween(Duration.ofMillis(250),
							Duration.ofMillis(250).plus(BusyMachine.MARGIN));
					assertThat(waitTimeOf(() -> orders.pay("9"))).isEqualTo(Duration.ofMillis(300));
					assertThat(orders.invocationCount()).isZero();
				}
				finally {
					held.release();
				}
			});
	}

	@Test
	void waitTimesBeyondTheNanosecondRangeWaitWithoutBound() {
		this.contextRunner.withPropertyValues("distributed-lock.wait-time=PT2562048H").run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			assertThat(orders.payPatiently("10")).isEqualTo("order:10");
			assertThat(orders.pay("10")).isEqualTo("order:10");
		});
	}

	private static Duration waitTimeOf(Runnable call) {
		try {
			call.run();
		}
		catch (LockTimeoutException ex) {
			return ex.getWaitTime();
		}
		throw new AssertionError("Expected a LockTimeoutException");
	}

}
