package dev.zklock.interceptor;

import java.io.IOException;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.DistributedLock;
import dev.zklock.LockHandle;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

/**
 * Applications on a real ZooKeeper server whose services lock through
 * {@link DistributedLock} methods, and another process that holds their keys.
 */
abstract class AbstractDistributedLockInterceptorTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	static ZooKeeperLockRegistry otherProcess;

	final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
				ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=" + zookeeper.connectString(),
				"distributed-lock.startup.connection-wait=" + LockApplications.CONNECTION_WAIT)
		.withUserConfiguration(LockedServicesConfiguration.class);

	@BeforeAll
	static void connectOtherProcess() throws Exception {
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	record Order(String customerId) {
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
