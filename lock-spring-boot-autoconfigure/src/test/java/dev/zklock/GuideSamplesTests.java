package dev.zklock;

import java.math.BigDecimal;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;

import com.example.accounts.AccountService;
import com.example.catalog.CatalogService;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.LockActivity;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The samples of the guide's "Lock types" chapter, which includes tagged regions of
 * {@link CatalogService} and {@link AccountService}, lock as the chapter says.
 */
class GuideSamplesTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@Test
	void readersHoldTogetherAndTheWriterWaitsForThem() throws Exception {
		ZooKeeperLockRegistry otherInstance = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		LockApplications.connectedTo(zookeeper).withUserConfiguration(CatalogService.class).run((context) -> {
			CatalogService catalog = context.getBean(CatalogService.class);
			catalog.add("lamp");
			AcquiredLock reader = otherInstance.acquire("catalog", LockType.READ, 1, Duration.ofSeconds(10));
			assertThat(catalog.items()).containsExactly("lamp");
			assertThat(catalog.snapshot()).containsExactly("lamp");
			CompletableFuture<Void> write = CompletableFuture.runAsync(() -> catalog.add("desk"));
			await().until(() -> context.getBean(ZooKeeperLockRegistry.class)
				.waitingLocks()
				.stream()
				.map(LockActivity::key)
				.toList(), (keys) -> keys.contains("catalog"));
			assertThat(write).isNotDone();
			reader.release();
			assertThat(write).succeedsWithin(Duration.ofSeconds(10));
			assertThat(catalog.items()).containsExactly("lamp", "desk");
		});
	}

	@Test
	void exportsShareTheSemaphoreOfFourPermits() throws Exception {
		ZooKeeperLockRegistry otherInstance = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		LockApplications.connectedTo(zookeeper).withUserConfiguration(CatalogService.class).run((context) -> {
			CatalogService catalog = context.getBean(CatalogService.class);
			AcquiredLock first = otherInstance.acquire("exports", LockType.SEMAPHORE, 4, Duration.ofSeconds(10));
			AcquiredLock second = otherInstance.acquire("exports", LockType.SEMAPHORE, 4, Duration.ofSeconds(10));
			assertThat(catalog.export("csv")).isEqualTo("0 items as csv");
			assertThat(catalog.exportWithin30Seconds("json")).isEqualTo("0 items as json");
			first.release();
			second.release();
		});
	}

	@Test
	void transferLocksBothAccounts() throws Exception {
		LockApplications.connectedTo(zookeeper).withUserConfiguration(AccountService.class).run((context) -> {
			AccountService accounts = context.getBean(AccountService.class);
			accounts.transfer("alice", "bob", BigDecimal.TEN);
			assertThat(List.of(accounts.transferLocked("bob", "alice", BigDecimal.ONE).split(",")))
				.containsExactlyInAnyOrder("account:alice", "account:bob");
			accounts.transferNamed("alice", "bob", BigDecimal.ONE);
			assertThat(accounts.balance("bob")).isEqualByComparingTo("10");
			assertThat(accounts.balance("alice")).isEqualByComparingTo("-10");
		});
	}

}
