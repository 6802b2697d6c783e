package dev.zklock.test;

import java.time.Duration;

import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.autoconfigure.zookeeper.EmbeddedZooKeeperServer;
import dev.zklock.test.shop.OrderService;
import dev.zklock.test.shop.ShopApplication;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.boot.test.context.SpringBootTest;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

@SpringBootTest(classes = ShopApplication.class)
@EmbeddedLockServer
class OtherProcessTests {

	@Autowired
	private OrderService orders;

	@Autowired
	private LockTemplate lockTemplate;

	@Autowired
	private OtherProcess otherProcess;

	@Autowired
	private ApplicationContext context;

	@Test
	void applicationUsesTheTestServerThoughItsConfigurationEnablesTheEmbeddedServer() {
		// src/test/resources/application.yml enables the embedded server
		assertThat(this.context.getBeanProvider(EmbeddedZooKeeperServer.class).getIfAvailable()).isNull();
		assertThat(this.context.getEnvironment().getProperty("distributed-lock.zookeeper.embedded.enabled"))
			.isEqualTo("false");
	}

	@Test
	void lockedMethodTimesOutWhileTheOtherProcessHoldsTheKeyAndRunsOnceItIsReleased() {
		long held;
		try (HeldKey key = this.otherProcess.hold("order:10")) {
			held = key.fencingToken();
			assertThat(key.isValid()).isTrue();
			assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> this.orders.pay("10"))
				.withMessageContaining("order:10");
		}
		// the hold's close returned once ZooKeeper applied the release: a try-once
		// acquisition finds the key free
		assertThat(this.orders.pay("10")).isGreaterThan(held);
	}

	@Test
	void skippingMethodSkipsWhileTheOtherProcessHoldsTheKey() {
		int closed = this.orders.closedDays();
		try (HeldKey key = this.otherProcess.hold("day")) {
			LockAssertions.assertThatCall(this.orders::closeDay).ranUnderNoLock();
			assertThat(this.orders.closedDays()).isEqualTo(closed);
		}
		LockAssertions.assertThatCall(this.orders::closeDay).ranUnderLock("day");
		assertThat(this.orders.closedDays()).isEqualTo(closed + 1);
	}

	@Test
	void otherProcessWaitsForTheApplicationsHold() {
		this.lockTemplate.execute("order:11", (lock) -> {
			assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(
					() -> this.otherProcess.hold(LockRequest.exclusive("order:11").withWaitTime(Duration.ZERO)));
			return null;
		});
		try (HeldKey key = this.otherProcess.hold(LockRequest.exclusive("order:11").withWaitTime(Duration.ZERO))) {
			assertThat(key.key()).isEqualTo("order:11");
		}
	}

	@Test
	void readLockOfTheOtherProcessLetsTheApplicationRead() {
		try (HeldKey key = this.otherProcess.hold(LockRequest.read("catalog"))) {
			LockAssertions.assertThatCall(() -> this.orders.price("plum"))
				.ranUnderLock("catalog")
				.ofType(LockType.READ);
		}
	}

	@Test
	void holdRefusesAMinimumHoldTime() {
		assertThatIllegalArgumentException().isThrownBy(
				() -> this.otherProcess.hold(LockRequest.exclusive("order:12").withHoldAtLeast(Duration.ofSeconds(1))))
			.withMessageContaining("'order:12'")
			.withMessageContaining("until its HeldKey is closed");
	}

}
