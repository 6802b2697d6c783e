package com.example.stock;

import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.test.EmbeddedLockServer;
import dev.zklock.test.HeldKey;
import dev.zklock.test.LockAssertions;
import dev.zklock.test.OtherProcess;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@SpringBootTest(properties = "distributed-lock.wait-time=0")
@EmbeddedLockServer
class StockServiceLockTests {

	@Autowired
	private StockService stock;

	@Autowired
	private OtherProcess otherProcess;

	@Test
	void restockRunsUnderTheItemsExclusiveLock() {
		LockAssertions.assertThatCall(() -> this.stock.restock("plums", 1))
			.ranUnderLock("stock:plums")
			.ofType(LockType.EXCLUSIVE);
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> LockAssertions.assertThatCall(() -> this.stock.count("plums")).ranUnderLock("stock:plums"))
			.withMessage("Expected the call to run under the lock of 'stock:plums', but it took no lock");
	}

	@Test
	void restockTimesOutWhileAnotherInstanceHoldsTheItem() {
		try (HeldKey held = this.otherProcess.hold("stock:figs")) {
			assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> this.stock.restock("figs", 2));
		}
		this.stock.restock("figs", 2);
		assertThat(this.stock.count("figs")).isEqualTo(2);
	}

}
