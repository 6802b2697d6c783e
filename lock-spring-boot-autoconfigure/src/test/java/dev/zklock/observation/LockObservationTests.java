package dev.zklock.observation;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.zklock.DistributedLock;
import dev.zklock.LockAcquisitionException;
import dev.zklock.LockLostException;
import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import io.micrometer.core.instrument.Meter;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Tag;
import io.micrometer.core.instrument.search.RequiredSearch;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * The observations of real locks, through the annotation and the template, as Spring
 * Boot's metrics turn them into meters of a {@code SimpleMeterRegistry}.
 */
class LockObservationTests {

	private static final Duration AWAIT = Duration.ofSeconds(15);

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static ZooKeeperLockRegistry otherProcess;

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
				ObservationAutoConfiguration.class, MetricsAutoConfiguration.class,
				SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class))
		.withUserConfiguration(OrdersConfiguration.class);

	@BeforeAll
	static void connectOtherProcess() throws Exception {
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	@Test
	void annotatedMethodsAreObservedUnderTheirDeclaredNameOrTheirClassAndMethod() {
		this.contextRunner.withPropertyValues("orders.catalog-lock=catalog-snapshot").run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			orders.nextNumber("42");
			orders.nextNumber("43");
			orders.snapshot("spring");
			assertThat(acquisitions(meters, "OrderService.nextNumber", "exclusive", "acquired").timer().count())
				.isEqualTo(2);
			assertThat(holds(meters, "OrderService.nextNumber", "exclusive", "released").timer().count()).isEqualTo(2);
			assertThat(acquisitions(meters, "catalog-snapshot", "read", "acquired").timer().count()).isOne();
			assertThat(holds(meters, "catalog-snapshot", "read", "released").timer().count()).isOne();
			assertNoTagCarriesAKey(meters);
		});
	}

	@Test
	void templateLocksAreObservedUnderTheRequestsNameOrAsUnnamed() {
		this.contextRunner.run((context) -> {
			LockTemplate template = context.getBean(LockTemplate.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			template.execute("report:2026-11-22", (lock) -> "built");
			template.execute(LockRequest.semaphore("export:2026-11-22", 2).withName("exports"), (lock) -> "exported");
			template.execute(LockRequest.write("catalog:spring").withName("catalog-update"), (lock) -> "updated");
			assertThat(acquisitions(meters, LockRequest.UNNAMED, "exclusive", "acquired").timer().count()).isOne();
			assertThat(acquisitions(meters, "exports", "semaphore", "acquired").timer().count()).isOne();
			assertThat(holds(meters, "catalog-update", "write", "released").timer().count()).isOne();
			assertNoTagCarriesAKey(meters);
		});
	}

	@Test
	void acquisitionThatWaitedInVainIsTaggedTimedOut() {
		this.contextRunner.run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			AcquiredLock held = otherProcess.acquire("order:7", Duration.ofSeconds(5));
			try {
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> orders.nextNumberNow("7"));
			}
			finally {
				held.release();
			}
			assertThat(acquisitions(meters, "OrderService.nextNumberNow", "exclusive", "timed_out")
				.tag("error", "LockTimeoutException")
				.timer()
				.count()).isOne();
			assertThat(meters.find("distributed.lock.hold").tag("name", "OrderService.nextNumberNow").timer()).isNull();
			assertNoTagCarriesAKey(meters);
		});
	}

	@Test
	void acquisitionThatFailedIsTaggedFailed() {
		this.contextRunner.run((context) -> {
			LockTemplate template = context.getBean(LockTemplate.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			AcquiredLock held = otherProcess.acquire("export:2026-11-23", LockType.SEMAPHORE, 3, Duration.ofSeconds(5));
			try {
				assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> template
					.execute(LockRequest.semaphore("export:2026-11-23", 2).withName("exports"), (lock) -> "exported"));
			}
			finally {
				held.release();
			}
			assertThat(acquisitions(meters, "exports", "semaphore", "failed").tag("error", "LockAcquisitionException")
				.timer()
				.count()).isOne();
			assertNoTagCarriesAKey(meters);
		});
	}

	@Test
	void activeCountsShowWhoHoldsAndWhoWaits() {
		this.contextRunner.run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			CountDownLatch release = new CountDownLatch(1);
			ExecutorService threads = Executors.newFixedThreadPool(2);
			try {
				CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> orders.holdUntil("9", release),
						threads);
				await().atMost(AWAIT).until(() -> activeHolds(meters, "order-hold") == 1);
				assertThat(activeWaits(meters, "order-hold")).isZero();
				CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> orders.holdUntil("9", release),
						threads);
				await().atMost(AWAIT).until(() -> activeWaits(meters, "order-hold") == 1);
				assertThat(activeHolds(meters, "order-hold")).isOne();
				release.countDown();
				assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("9");
				assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("9");
			}
			finally {
				release.countDown();
				threads.shutdownNow();
			}
			assertThat(activeHolds(meters, "order-hold")).isZero();
			assertThat(activeWaits(meters, "order-hold")).isZero();
			assertThat(acquisitions(meters, "order-hold", "exclusive", "acquired").timer().count()).isEqualTo(2);
			assertNoTagCarriesAKey(meters);
		});
	}

	@Test
	void severalKeysAreObservedOneAcquisitionAndOneHoldEach() {
		this.contextRunner.run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			orders.transfer("a", "b");
			assertThat(acquisitions(meters, "OrderService.transfer", "exclusive", "acquired").timer().count())
				.isEqualTo(2);
			assertThat(holds(meters, "OrderService.transfer", "exclusive", "released").timer().count()).isEqualTo(2);
			assertNoTagCarriesAKey(meters);
		});
	}

	@Test
	void asynchronousResultIsHeldUntilItCompletes() {
		this.contextRunner.run((context) -> {
			OrderService orders = context.getBean(OrderService.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			CompletableFuture<String> work = new CompletableFuture<>();
			CompletableFuture<String> result = orders.export("2026-11-22", work);
			assertThat(activeHolds(meters, "OrderService.export")).isOne();
			work.complete("exported");
			assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo("exported");
			assertThat(activeHolds(meters, "OrderService.export")).isZero();
			assertThat(holds(meters, "OrderService.export", "exclusive", "released").timer().count()).isOne();
			assertNoTagCarriesAKey(meters);
		});
	}

	@Test
	void holdWithAMinimumTimeEndsWhenTheLockIsReleased() {
		this.contextRunner.run((context) -> {
			LockTemplate template = context.getBean(LockTemplate.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			template.execute(
					LockRequest.exclusive("cleanup").withName("cleanup").withHoldAtLeast(Duration.ofMillis(500)),
					(lock) -> "cleaned");
			assertThat(activeHolds(meters, "cleanup")).isOne();
			await().atMost(AWAIT).until(() -> activeHolds(meters, "cleanup") == 0);
			assertThat(holds(meters, "cleanup", "exclusive", "released").timer().totalTime(TimeUnit.MILLISECONDS))
				.isGreaterThanOrEqualTo(500);
		});
	}

	@Test
	void holdWhoseLockWasLostIsTaggedLost() {
		this.contextRunner.run((context) -> {
			LockTemplate template = context.getBean(LockTemplate.class);
			MeterRegistry meters = context.getBean(MeterRegistry.class);
			CuratorFramework client = context.getBean(CuratorFramework.class);
			assertThatExceptionOfType(LockLostException.class)
				.isThrownBy(() -> template.execute(LockRequest.exclusive("stock:1").withName("stock"), (lock) -> {
					client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
					await().atMost(AWAIT).until(() -> !lock.isValid());
					return "counted";
				}));
			assertThat(holds(meters, "stock", "exclusive", "lost").tag("error", "none").timer().count()).isOne();
		});
	}

	@Test
	void springBootsPropertyTurnsTheObservationsOff() {
		this.contextRunner.withPropertyValues("management.observations.enable.distributed.lock=false")
			.run((context) -> {
				assertThat(context.getBean(OrderService.class).nextNumber("45")).isEqualTo("45");
				assertThat(context.getBean(MeterRegistry.class).find("distributed.lock.acquisition").meters())
					.isEmpty();
			});
	}

	@Test
	void withoutAnObservationRegistryLocksWorkAndNothingIsMeasured() {
		LockApplications.connectedTo(zookeeper)
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class))
			.withUserConfiguration(OrdersConfiguration.class)
			.run((context) -> {
				assertThat(context.getBean(OrderService.class).nextNumber("44")).isEqualTo("44");
				assertThat(context.getBean(MeterRegistry.class).find("distributed.lock.acquisition").meters())
					.isEmpty();
			});
	}

	private static RequiredSearch acquisitions(MeterRegistry meters, String name, String type, String outcome) {
		return meters.get("distributed.lock.acquisition").tags("name", name, "type", type, "outcome", outcome);
	}

	private static RequiredSearch holds(MeterRegistry meters, String name, String type, String outcome) {
		return meters.get("distributed.lock.hold").tags("name", name, "type", type, "outcome", outcome);
	}

	private static int activeHolds(MeterRegistry meters, String name) {
		return meters.get("distributed.lock.hold.active").tag("name", name).longTaskTimer().activeTasks();
	}

	private static int activeWaits(MeterRegistry meters, String name) {
		return meters.get("distributed.lock.acquisition.active").tag("name", name).longTaskTimer().activeTasks();
	}

	/**
	 * Every key of these tests has a colon, which no name has: a tag value with one would
	 * be a key.
	 */
	private static void assertNoTagCarriesAKey(MeterRegistry meters) {
		List<Meter> lockMeters = meters.getMeters()
			.stream()
			.filter((meter) -> meter.getId().getName().startsWith("distributed.lock"))
			.toList();
		assertThat(lockMeters).isNotEmpty()
			.flatMap((meter) -> meter.getId().getTags())
			.extracting(Tag::getValue)
			.noneMatch((value) -> value.contains(":"));
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
