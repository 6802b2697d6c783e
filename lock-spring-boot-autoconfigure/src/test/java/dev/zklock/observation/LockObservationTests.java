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
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.search.RequiredSearch;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.assertj.core.api.ThrowingConsumer;
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
import org.springframework.context.ApplicationContext;
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
		run(this.contextRunner.withPropertyValues("orders.catalog-lock=catalog-snapshot"), (locks) -> {
			OrderService orders = locks.orders();
			orders.nextNumber("42");
			orders.nextNumber("43");
			orders.snapshot("spring");
			assertThat(locks.acquisitions("OrderService.nextNumber", "exclusive", "acquired").timer().count())
				.isEqualTo(2);
			assertThat(locks.holds("OrderService.nextNumber", "exclusive", "released").timer().count()).isEqualTo(2);
			assertThat(locks.acquisitions("catalog-snapshot", "read", "acquired").timer().count()).isOne();
			assertThat(locks.holds("catalog-snapshot", "read", "released").timer().count()).isOne();
			locks.assertNoTagCarriesAKey();
		});
	}

	@Test
	void templateLocksAreObservedUnderTheRequestsNameOrAsUnnamed() {
		run((locks) -> {
			LockTemplate template = locks.template();
			template.execute("report:2026-11-22", (lock) -> "built");
			template.execute(LockRequest.semaphore("export:2026-11-22", 2).withName("exports"), (lock) -> "exported");
			template.execute(LockRequest.write("catalog:spring").withName("catalog-update"), (lock) -> "updated");
			assertThat(locks.acquisitions(LockRequest.UNNAMED, "exclusive", "acquired").timer().count()).isOne();
			assertThat(locks.acquisitions("exports", "semaphore", "acquired").timer().count()).isOne();
			assertThat(locks.holds("catalog-update", "write", "released").timer().count()).isOne();
			locks.assertNoTagCarriesAKey();
		});
	}

	@Test
	void acquisitionThatWaitedInVainIsTaggedTimedOut() {
		run((locks) -> {
			OrderService orders = locks.orders();
			AcquiredLock held = otherProcess.acquire("order:7", Duration.ofSeconds(5));
			try {
				assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> orders.nextNumberNow("7"));
			}
			finally {
				held.release();
			}
			assertThat(locks.acquisitions("OrderService.nextNumberNow", "exclusive", "timed_out")
				.tag("error", "LockTimeoutException")
				.timer()
				.count()).isOne();
			assertThat(locks.meters().find("distributed.lock.hold").tag("name", "OrderService.nextNumberNow").timer())
				.isNull();
			locks.assertNoTagCarriesAKey();
		});
	}

	@Test
	void acquisitionThatFailedIsTaggedFailed() {
		run((locks) -> {
			LockTemplate template = locks.template();
			AcquiredLock held = otherProcess.acquire("export:2026-11-23", LockType.SEMAPHORE, 3, Duration.ofSeconds(5));
			try {
				assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(() -> template
					.execute(LockRequest.semaphore("export:2026-11-23", 2).withName("exports"), (lock) -> "exported"));
			}
			finally {
				held.release();
			}
			assertThat(locks.acquisitions("exports", "semaphore", "failed")
				.tag("error", "LockAcquisitionException")
				.timer()
				.count()).isOne();
			locks.assertNoTagCarriesAKey();
		});
	}

	@Test
	void activeCountsShowWhoHoldsAndWhoWaits() {
		run((locks) -> {
			OrderService orders = locks.orders();
			CountDownLatch release = new CountDownLatch(1);
			ExecutorService threads = Executors.newFixedThreadPool(2);
			try {
				CompletableFuture<String> first = CompletableFuture.supplyAsync(() -> orders.holdUntil("9", release),
						threads);
				await().atMost(AWAIT).until(() -> locks.activeHolds("order-hold") == 1);
				assertThat(locks.activeWaits("order-hold")).isZero();
				CompletableFuture<String> second = CompletableFuture.supplyAsync(() -> orders.holdUntil("9", release),
						threads);
				await().atMost(AWAIT).until(() -> locks.activeWaits("order-hold") == 1);
				assertThat(locks.activeHolds("order-hold")).isOne();
				release.countDown();
				assertThat(first.get(10, TimeUnit.SECONDS)).isEqualTo("9");
				assertThat(second.get(10, TimeUnit.SECONDS)).isEqualTo("9");
			}
			finally {
				release.countDown();
				threads.shutdownNow();
			}
			assertThat(locks.activeHolds("order-hold")).isZero();
			assertThat(locks.activeWaits("order-hold")).isZero();
			assertThat(locks.acquisitions("order-hold", "exclusive", "acquired").timer().count()).isEqualTo(2);
			locks.assertNoTagCarriesAKey();
		});
	}

	@Test
	void severalKeysAreObservedOneAcquisitionAndOneHoldEach() {
		run((locks) -> {
			OrderService orders = locks.orders();
			orders.transfer("a", "b");
			assertThat(locks.acquisitions("OrderService.transfer", "exclusive", "acquired").timer().count())
				.isEqualTo(2);
			assertThat(locks.holds("OrderService.transfer", "exclusive", "released").timer().count()).isEqualTo(2);
			locks.assertNoTagCarriesAKey();
		});
	}

	@Test
	void asynchronousResultIsHeldUntilItCompletes() {
		run((locks) -> {
			OrderService orders = locks.orders();
			CompletableFuture<String> work = new CompletableFuture<>();
			CompletableFuture<String> result = orders.export("2026-11-22", work);
			assertThat(locks.activeHolds("OrderService.export")).isOne();
			work.complete("exported");
			assertThat(result.get(5, TimeUnit.SECONDS)).isEqualTo("exported");
			assertThat(locks.activeHolds("OrderService.export")).isZero();
			assertThat(locks.holds("OrderService.export", "exclusive", "released").timer().count()).isOne();
			locks.assertNoTagCarriesAKey();
		});
	}

	@Test
	void holdWithAMinimumTimeEndsWhenTheLockIsReleased() {
		run((locks) -> {
			LockTemplate template = locks.template();
			template.execute(
					LockRequest.exclusive("cleanup").withName("cleanup").withHoldAtLeast(Duration.ofMillis(500)),
					(lock) -> "cleaned");
			assertThat(locks.activeHolds("cleanup")).isOne();
			await().atMost(AWAIT).until(() -> locks.activeHolds("cleanup") == 0);
			assertThat(locks.context().getBean(ZooKeeperLockRegistry.class).keysInUse()).isZero();
			assertThat(locks.holds("cleanup", "exclusive", "released").timer().totalTime(TimeUnit.MILLISECONDS))
				.isGreaterThanOrEqualTo(500);
		});
	}

	@Test
	void minimumHoldTimeIsMeasuredInFullWhenAHandlerIsSlowToStartTheHold() {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		LockApplications.connectedTo(zookeeper)
			.withBean(ObservationRegistry.class, () -> slowToStartHolds(meters, Duration.ofMillis(200)))
			.run((context) -> {
				context.getBean(LockTemplate.class)
					.execute(LockRequest.exclusive("report").withName("report").withHoldAtLeast(Duration.ofMillis(500)),
							(lock) -> "reported");
				Search released = meters.find("distributed.lock.hold").tag("outcome", "released");
				await().atMost(AWAIT).until(() -> released.timer() != null);
				assertThat(released.timer().totalTime(TimeUnit.MILLISECONDS)).isGreaterThanOrEqualTo(500);
			});
	}

	/**
	 * An observation registry whose meters start timing a hold only after another handler
	 * took its time: the hold is measured from later than the lock was acquired.
	 */
	private static ObservationRegistry slowToStartHolds(MeterRegistry meters, Duration delay) {
		ObservationRegistry registry = ObservationRegistry.create();
		registry.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public boolean supportsContext(Observation.Context context) {
				return context instanceof LockObservationContext;
			}

			@Override
			public void onStart(Observation.Context context) {
				if ("distributed.lock.hold".equals(context.getName())) {
					try {
						Thread.sleep(delay.toMillis());
					}
					catch (InterruptedException ex) {
						Thread.currentThread().interrupt();
					}
				}
			}

		}).observationHandler(new DefaultMeterObservationHandler(meters));
		return registry;
	}

	@Test
	void holdWhoseLockWasLostIsTaggedLost() {
		run((locks) -> {
			LockTemplate template = locks.template();
			CuratorFramework client = locks.context().getBean(CuratorFramework.class);
			assertThatExceptionOfType(LockLostException.class)
				.isThrownBy(() -> template.execute(LockRequest.exclusive("stock:1").withName("stock"), (lock) -> {
					client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
					await().atMost(AWAIT).until(() -> !lock.isValid());
					return "counted";
				}));
			assertThat(locks.holds("stock", "exclusive", "lost").tag("error", "none").timer().count()).isOne();
		});
	}

	@Test
	void springBootsPropertyTurnsTheObservationsOff() {
		run(this.contextRunner.withPropertyValues("management.observations.enable.distributed.lock=false"),
				LockObservationTests::locksButMeasuresNothing);
	}

	@Test
	void withoutAnObservationRegistryLocksWorkAndNothingIsMeasured() {
		run(LockApplications.connectedTo(zookeeper)
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class))
			.withUserConfiguration(OrdersConfiguration.class), LockObservationTests::locksButMeasuresNothing);
	}

	private static void locksButMeasuresNothing(Locks locks) {
		assertThat(locks.orders().nextNumber("44")).isEqualTo("44");
		assertThat(locks.meters().find("distributed.lock.acquisition").meters()).isEmpty();
	}

	private void run(ThrowingConsumer<Locks> test) {
		run(this.contextRunner, test);
	}

	private static void run(ApplicationContextRunner contextRunner, ThrowingConsumer<Locks> test) {
		contextRunner.run((context) -> test.acceptThrows(new Locks(context)));
	}

	/**
	 * An application of these tests: its beans, and its lock meters by name and tags.
	 */
	private record Locks(ApplicationContext context) {

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
