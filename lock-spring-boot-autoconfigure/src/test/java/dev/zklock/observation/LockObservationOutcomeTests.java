package dev.zklock.observation;

import java.time.Duration;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockLostException;
import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Acquisitions that wait in vain or fail, and holds whose lock is lost, are tagged with
 * their outcome and their error.
 */
class LockObservationOutcomeTests extends AbstractLockObservationTests {

	private static ZooKeeperLockRegistry otherProcess;

	@BeforeAll
	static void connectOtherProcess() throws Exception {
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
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

}
