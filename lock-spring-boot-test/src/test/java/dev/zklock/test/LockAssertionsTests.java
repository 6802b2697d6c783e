package dev.zklock.test;

import java.io.IOException;

import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.LockType;
import dev.zklock.test.shop.Ledger;
import dev.zklock.test.shop.OrderService;
import dev.zklock.test.shop.ShopApplication;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIOException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

@SpringBootTest(classes = ShopApplication.class)
@EmbeddedLockServer
class LockAssertionsTests {

	@Autowired
	private OrderService orders;

	@Autowired
	private Ledger ledger;

	@Autowired
	private LockTemplate lockTemplate;

	@Value("${distributed-lock.zookeeper.connect-string}")
	private String connectString;

	@Test
	void applicationLocksOnTheServerOfTheAnnotation() {
		assertThat(this.connectString).startsWith("127.0.0.1:");
		long first = this.orders.pay("1");
		long second = this.orders.pay("1");
		assertThat(second).isGreaterThan(first);
		assertThat(this.ledger.payments()).filteredOn("1"::equals).hasSize(2);
	}

	@Test
	void assertLockedPassesInsideTheLockedMethod() {
		this.orders.pay("2");
		assertThat(this.ledger.payments()).contains("2");
	}

	@Test
	void assertLockedFailsOutsideTheLockNamingWhatTheThreadHolds() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> this.orders.payWithoutLock("3"))
			.withMessage("Expected thread '" + Thread.currentThread().getName()
					+ "' to hold the lock of 'order:3' as EXCLUSIVE, but it holds no lock");
		this.lockTemplate.execute("order:4", (lock) -> {
			assertThatExceptionOfType(AssertionError.class).isThrownBy(() -> this.orders.payWithoutLock("3"))
				.withMessageEndingWith("but it holds only 'order:4' (EXCLUSIVE)");
			return null;
		});
		assertThat(this.ledger.payments()).doesNotContain("3");
	}

	@Test
	void assertLockedFailsForAnotherTypeNamingTheHeldOne() {
		this.lockTemplate.execute(LockRequest.read("catalog"), (lock) -> {
			LockAssertions.assertLocked("catalog");
			LockAssertions.assertLocked("catalog", LockType.READ);
			assertThatExceptionOfType(AssertionError.class)
				.isThrownBy(() -> LockAssertions.assertLocked("catalog", LockType.EXCLUSIVE))
				.withMessage("Expected thread '" + Thread.currentThread().getName()
						+ "' to hold the lock of 'catalog' as EXCLUSIVE, but it holds it as READ");
			return null;
		});
	}

	@Test
	void callRanUnderTheLockOfItsKeyAndType() {
		LockAssertions.assertThatCall(() -> this.orders.pay("5"))
			.ranUnderLock("order:5")
			.ofType(LockType.EXCLUSIVE)
			.ofType(LockType.WRITE);
		LockAssertions.assertThatCall(() -> this.orders.price("apple")).ranUnderLock("catalog").ofType(LockType.READ);
		LockAssertions.assertThatCall(this.orders::closedDays).ranUnderNoLock();
	}

	@Test
	void callThatThrowsCheckedExceptionsRanUnderTheLockOfItsKey() throws IOException {
		LockAssertions.assertThatCheckedCall(() -> this.orders.refund("8")).ranUnderLock("order:8");
		assertThatIOException().isThrownBy(() -> LockAssertions.assertThatCheckedCall(() -> this.orders.refund("")))
			.withMessage("No order to refund");
	}

	@Test
	void callAssertionsFailNamingTheLocksTheCallTook() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertThatCall(() -> this.orders.price("pear")).ranUnderLock("order:6"))
			.withMessage("Expected the call to run under the lock of 'order:6', but it took only 'catalog' (READ)");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertThatCall(() -> this.orders.price("pear"))
				.ranUnderLock("catalog")
				.ofType(LockType.EXCLUSIVE))
			.withMessage("Expected the call to run under the lock of 'catalog' as EXCLUSIVE, but it held it as READ");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertThatCall(this.orders::closedDays).ranUnderLock("day"))
			.withMessage("Expected the call to run under the lock of 'day', but it took no lock");
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertThatCall(() -> this.orders.pay("7")).ranUnderNoLock())
			.withMessage("Expected the call to run under no lock, but it took only 'order:7' (EXCLUSIVE)");
	}

	@Test
	void typeIsCheckedAgainstAKeyOnly() {
		assertThatIllegalStateException()
			.isThrownBy(() -> LockAssertions.assertThatCall(this.orders::closedDays).ofType(LockType.READ))
			.withMessageContaining("ranUnderLock(key)");
	}

}
