package dev.zklock.observation;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.search.Search;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A hold is observed for as long as its lock is held, through an asynchronous result and
 * a minimum hold time, and the active meters count who holds and who waits meanwhile.
 */
class LockHoldObservationTests extends AbstractLockObservationTests {

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
				assertThat(first.get(30, TimeUnit.SECONDS)).isEqualTo("9");
				assertThat(second.get(30, TimeUnit.SECONDS)).isEqualTo("9");
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
	void asynchronousResultIsHeldUntilItCompletes() {
		run((locks) -> {
			OrderService orders = locks.orders();
			CompletableFuture<String> work = new CompletableFuture<>();
			CompletableFuture<String> result = orders.export("2026-11-22", work);
			assertThat(locks.activeHolds("OrderService.export")).isOne();
			work.complete("exported");
			assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo("exported");
			assertThat(locks.activeHolds("OrderService.export")).isZero();
			assertThat(locks.holds("OrderService.export", "exclusive", "released").timer().count()).isOne();
			locks.assertNoTagCarriesAKey();
		});
	}

	@Test
	void holdWithAMinimumTimeEndsWhenTheLockIsReleased() {
		run((locks) -> {
			LockTemplate template = locks.template();
			// long enough to outlast the call and the check on a busy machine
			Duration holdAtLeast = Duration.ofSeconds(5);
			template.execute(LockRequest.exclusive("cleanup").withName("cleanup").withHoldAtLeast(holdAtLeast),
					(lock) -> "cleaned");
			assertThat(locks.activeHolds("cleanup")).isOne();
			await().atMost(AWAIT).until(() -> locks.activeHolds("cleanup") == 0);
			assertThat(locks.context().getBean(ZooKeeperLockRegistry.class).keysInUse()).isZero();
			assertThat(locks.holds("cleanup", "exclusive", "released").timer().totalTime(TimeUnit.MILLISECONDS))
				.isGreaterThanOrEqualTo(holdAtLeast.toMillis());
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

}
