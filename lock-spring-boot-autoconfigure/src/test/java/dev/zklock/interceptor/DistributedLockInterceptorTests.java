package dev.zklock.interceptor;

import java.io.IOException;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.DistributedLock;
import dev.zklock.LockHandle;
import dev.zklock.LockTimeoutException;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

class DistributedLockInterceptorTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static ZooKeeperLockRegistry otherProcess;

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
				ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=" + zookeeper.connectString())
		.withUserConfiguration(LockedServicesConfiguration.class);

	@BeforeAll
	static void connectOtherProcess() throws Exception {
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	@Test
	void keyExpressionsSeeParametersByNameAndPositionBeansAndTheRoot() {
		this.contextRunner.run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			assertThat(orders.pay("42")).isEqualTo("order:42");
			assertThat(orders.byPosition("a", "b")).isEqualTo("a|b");
			assertThat(orders.byBean()).isEqualTo("prefix-x");
			assertThat(orders.byRoot()).isEqualTo("byRoot");
			assertThat(orders.byProperty(new Order("c-7"))).isEqualTo("customer:c-7");
		});
	}

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
							Duration.ofSeconds(2));
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

	@Test
	void annotationOnAnInterfaceMethodApplies() {
		this.contextRunner.run((context) -> {
			Greeter greeter = context.getBean(Greeter.class);
			assertThat(greeter.greet("ann")).isEqualTo("hello ann under greeting:ann");
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

	record Order(String customerId) {
	}

	static class NullText {

		@Override
		public @Nullable String toString() {
			return null;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class LockedServicesConfiguration {

		@Bean
		OrderService orderService() {
			return new OrderService();
		}

		@Bean
		OuterService outerService(InnerService innerService) {
			return new OuterService(innerService);
		}

		@Bean
		InnerService innerService() {
			return new InnerService();
		}

		@Bean
		KeyPrefix keyPrefix() {
			return new KeyPrefix();
		}

		@Bean
		NullKey nullKey() {
			return new NullKey();
		}

		@Bean
		Greeter greeter() {
			return new PoliteGreeter();
		}

	}

	static class KeyPrefix {

		public String value() {
			return "prefix";
		}

	}

	static class NullKey {

		public @Nullable String value() {
			return null;
		}

	}

	static class OrderService {

		private final AtomicInteger invocations = new AtomicInteger();

		int invocationCount() {
			return this.invocations.get();
		}

		@DistributedLock(key = "'order:' + #orderId")
		String pay(String orderId) {
			this.invocations.incrementAndGet();
			return LockHandle.current().key();
		}

		@DistributedLock(key = "'order:' + #orderId", waitTime = "0")
		String payQuickly(String orderId) {
			this.invocations.incrementAndGet();
			return LockHandle.current().key();
		}

		@DistributedLock(key = "'order:' + #orderId", waitTime = "PT2562048H")
		String payPatiently(String orderId) {
			this.invocations.incrementAndGet();
			return LockHandle.current().key();
		}

		@DistributedLock(key = "'order:' + #orderId", waitTime = "${orders.wait:1s}")
		String payWithPlaceholderWait(String orderId) {
			this.invocations.incrementAndGet();
			return LockHandle.current().key();
		}

		@DistributedLock(key = "#orderId")
		String bare(Object orderId) {
			this.invocations.incrementAndGet();
			return LockHandle.current().key();
		}

		@DistributedLock(key = "#id.substring(5)")
		String bySuffix(String id) {
			this.invocations.incrementAndGet();
			return LockHandle.current().key();
		}

		@DistributedLock(key = "@nullKey.value()")
		String byNullBean() {
			this.invocations.incrementAndGet();
			return LockHandle.current().key();
		}

		@DistributedLock(key = "#p0 + '|' + #a1")
		String byPosition(String first, String second) {
			return LockHandle.current().key();
		}

		@DistributedLock(key = "@keyPrefix.value() + '-x'")
		String byBean() {
			return LockHandle.current().key();
		}

		@DistributedLock(key = "#root.methodName")
		String byRoot() {
			return LockHandle.current().key();
		}

		@DistributedLock(key = "'customer:' + #order.customerId")
		String byProperty(Order order) {
			this.invocations.incrementAndGet();
			return LockHandle.current().key();
		}

		@DistributedLock(key = "'failing:' + #id")
		void fail(String id, IOException failure) throws IOException {
			throw failure;
		}

	}

	static class OuterService {

		private final InnerService inner;

		OuterService(InnerService inner) {
			this.inner = inner;
		}

		@DistributedLock(key = "'nested:' + #key", waitTime = "5s")
		List<Long> outer(String key) {
			return List.of(LockHandle.current().fencingToken(), this.inner.inner(key));
		}

	}

	static class InnerService {

		@DistributedLock(key = "'nested:' + #key", waitTime = "0")
		long inner(String key) {
			return LockHandle.current().fencingToken();
		}

	}

	interface Greeter {

		@DistributedLock(key = "'greeting:' + #name")
		String greet(String name);

	}

	static class PoliteGreeter implements Greeter {

		@Override
		public String greet(String name) {
			return "hello " + name + " under " + LockHandle.current().key();
		}

	}

}
