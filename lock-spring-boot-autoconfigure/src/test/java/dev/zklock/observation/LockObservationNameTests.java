package dev.zklock.observation;

import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Lock meters are tagged with the lock's declared or requested name, or with the
 * annotated method's class and method, never with its key, and count one acquisition and
 * one hold for each key.
 */
class LockObservationNameTests extends AbstractLockObservationTests {

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

}
