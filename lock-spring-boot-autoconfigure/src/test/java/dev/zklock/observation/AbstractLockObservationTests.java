package dev.zklock.observation;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;

import dev.zklock.DistributedLock;
import dev.zklock.LockTemplate;
import dev.zklock.LockType;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.search.RequiredSearch;
import org.assertj.core.api.ThrowingConsumer;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Applications on a real ZooKeeper server that lock through an {@link OrderService} and
 * the template, whose observations Spring Boot's metrics turn into meters of a
 * {@code SimpleMeterRegistry}.
 */
abstract class AbstractLockObservationTests {

	static final Duration AWAIT = Duration.ofSeconds(15);

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
				ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class))
		.withUserConfiguration(OrdersConfiguration.class);

	void run(ThrowingConsumer<Locks> test) {
		run(this.contextRunner, test);
	}

	static void run(ApplicationContextRunner contextRunner, ThrowingConsumer<Locks> test) {
		contextRunner.run((context) -> test.acceptThrows(new Locks(context)));
	}

	/**
	 * An application of these tests: its beans, and its lock meters by name and tags.
	 */
	record Locks(ApplicationContext context) {

		OrderService orders() {
			return this.context.getBean(OrderService.class);
		}

		LockTemplate template() {
			return this.context.getBean(LockTemplate.class);
		}

		MeterRegistry meters() {
			return this.context.getBean(MeterRegistry.class);
		}

		RequiredSearch acquisitions(String name, String type, String outcome) {
			return meters().get("distributed.lock.acquisition").tags("name", name, "type", type, "outcome", outcome);
		}

		RequiredSearch holds(String name, String type, String outcome) {
			return meters().get("distributed.lock.hold").tags("name", name, "type", type, "outcome", outcome);
		}

		int activeHolds(String name) {
			return meters().get("distributed.lock.hold.active").tag("name", name).longTaskTimer().activeTasks();
		}

		int activeWaits(String name) {
			return meters().get("distributed.lock.acquisition.active").tag("name", name).longTaskTimer().activeTasks();
		}

		/**
		 * Every key of these tests has a colon, which no name has: a tag value with one
		 * would be a key.
		 */
		void assertNoTagCarriesAKey() {
			List<Meter> lockMeters = meters().getMeters()
				.stream()
				.filter((meter) -> meter.getId().getName().startsWith("distributed.lock"))
				.toList();
			assertThat(lockMeters).isNotEmpty()
				.flatMap((meter) -> meter.getId().getTags())
				.extracting(Tag::getValue)
				.noneMatch((value) -> value.contains(":"));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OrdersConfiguration {

		@Bean
		OrderService orderService() {
			return new OrderService();
		}

	}

	static class OrderService {

		@DistributedLock(key = "'order:' + #orderId")
		public String nextNumber(String orderId) {
			return orderId;
		}

		@DistributedLock(key = "'order:' + #orderId", waitTime = "0")
		public String nextNumberNow(String orderId) {
			return orderId;
		}

		@DistributedLock(key = "'order:' + #orderId", waitTime = "10s", name = "order-hold")
		public String holdUntil(String orderId, CountDownLatch release) {
			try {
				release.await(10, TimeUnit.SECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
			return orderId;
		}

		@DistributedLock(key = "'catalog:' + #id", type = LockType.READ, name = "${orders.catalog-lock:catalog}")
		public String snapshot(String id) {
			return id;
		}

		@DistributedLock(key = "{'account:' + #from, 'account:' + #to}")
		public String transfer(String from, String to) {
			return from + "->" + to;
		}

		@DistributedLock(key = "'export:' + #day")
		public CompletableFuture<String> export(String day, CompletableFuture<String> work) {
			return work;
		}

	}

}
