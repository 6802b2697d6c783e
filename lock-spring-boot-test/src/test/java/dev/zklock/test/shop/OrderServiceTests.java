// tag::test[]
package dev.zklock.test.shop;

import java.io.IOException;

import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.test.EmbeddedLockServer;
import dev.zklock.test.HeldKey;
import dev.zklock.test.LockAssertions;
import dev.zklock.test.OtherProcess;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@SpringBootTest
@EmbeddedLockServer
class OrderServiceTests {

	@Autowired
	private OrderService orders;

	@Autowired
	private OtherProcess otherProcess;

	@Test
	void payRunsUnderTheExclusiveLockOfTheOrder() {
		LockAssertions.assertThatCall(() -> this.orders.pay("42")).ranUnderLock("order:42").ofType(LockType.EXCLUSIVE);
	}

	@Test
	void refundRunsUnderTheLockOfTheOrder() throws IOException {
		LockAssertions.assertThatCheckedCall(() -> this.orders.refund("43")).ranUnderLock("order:43");
	}

	@Test
	void payTimesOutWhileAnotherInstanceHoldsTheOrder() {
		try (HeldKey held = this.otherProcess.hold("order:44")) {
			assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> this.orders.pay("44"));
		}
	}

}
// end::test[]
