package dev.zklock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;

import com.example.inventory.StockReservations;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The example of the guide's chapter on the {@code java.util.concurrent.locks.Lock} view:
 * the page includes {@link StockReservations} whole, as it is compiled with the tests,
 * and it locks as the chapter says.
 */
class LockViewExampleTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static final Path EXAMPLE = Path.of("src", "test", "java", "com", "example", "inventory",
			"StockReservations.java");

	@Test
	void guideShowsTheExampleClassWhole() throws IOException {
		String page = Files.readString(Path.of("..", "docs", "modules", "ROOT", "pages", "lock-view.adoc"));
		assertThat(EXAMPLE).exists();
		assertThat(page).contains("[source,java]\n----\ninclude::example$core/"
				+ Path.of("src", "test", "java").relativize(EXAMPLE).toString().replace('\\', '/') + "[]\n----\n");
	}

	@Test
	void reservationTakesTheFreeLockAndAnswersBusyWhileAnotherProcessHoldsIt() throws Exception {
		try (ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
				ZooKeeperLockRegistry otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks")) {
			StockReservations reservations = new StockReservations(registry);
			assertThat(reservations.reserve("sku-7")).startsWith("reserved sku-7 with fencing token ");
			AcquiredLock elsewhere = otherProcess.acquire("inventory:sku-7", Duration.ofSeconds(10));
			assertThat(reservations.reserve("sku-7")).isEqualTo("sku-7 is busy");
			elsewhere.release();
			String reserved = reservations.reserve("sku-7");
			assertThat(reserved).startsWith("reserved sku-7 with fencing token ");
			assertThat(Long.parseLong(reserved.substring(reserved.lastIndexOf(' ') + 1)))
				.isGreaterThan(elsewhere.fencingToken());
			assertThat(registry.keysInUse()).isZero();
		}
	}

}
