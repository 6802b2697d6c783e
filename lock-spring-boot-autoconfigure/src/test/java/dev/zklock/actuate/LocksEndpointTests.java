package dev.zklock.actuate;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.zklock.LockType;
import dev.zklock.autoconfigure.actuate.LocksEndpointAutoConfiguration;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The {@code locks} endpoint shows what this instance holds and waits for, and a key's
 * queue across instances.
 */
class LocksEndpointTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withConfiguration(AutoConfigurations.of(LocksEndpointAutoConfiguration.class))
		.withPropertyValues("spring.application.name=orders", "management.endpoints.web.exposure.include=locks");

	@Test
	void listsTheLocksHeldAndAwaitedByOtherThreadsAndTheQueueOfAKey() throws Exception {
		ZooKeeperLockRegistry otherInstance = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		otherInstance.setApplicationName("billing");
		this.contextRunner.run((context) -> {
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			LocksEndpoint endpoint = context.getBean(LocksEndpoint.class);
			AcquiredLock elsewhere = otherInstance.acquire("invoice:9", Duration.ofSeconds(10));
			AcquiredLock held = CompletableFuture
				.supplyAsync(() -> registry.acquire("report", LockType.READ, 1, Duration.ZERO))
				.get();
			CompletableFuture<AcquiredLock> waiter = CompletableFuture
				.supplyAsync(() -> registry.acquire("invoice:9", Duration.ofSeconds(10)));
			await().until(() -> !registry.waitingLocks().isEmpty());
			LocksEndpoint.LocksDescriptor locks = endpoint.locks();
			assertThat(locks.rootPath()).isEqualTo("/locks");
			assertThat(locks.held()).singleElement().satisfies((lock) -> {
				assertThat(lock.key()).isEqualTo("report");
				assertThat(lock.type()).isEqualTo("READ");
				assertThat(lock.fencingToken()).isEqualTo(held.fencingToken());
				assertThat(lock.thread()).isNotBlank();
			});
			assertThat(locks.waiting()).singleElement().satisfies((lock) -> {
				assertThat(lock.key()).isEqualTo("invoice:9");
				assertThat(lock.type()).isEqualTo("EXCLUSIVE");
				assertThat(lock.fencingToken()).isNull();
			});
			LocksEndpoint.KeyDescriptor queue = endpoint.key("invoice:9");
			assertThat(queue.path()).isEqualTo("/locks/invoice:9");
			assertThat(queue.queue()).hasSize(2);
			assertThat(queue.queue().get(0).holding()).isTrue();
			assertThat(queue.queue().get(0).holder().application()).isEqualTo("billing");
			assertThat(queue.queue().get(0).fencingToken()).isEqualTo(elsewhere.fencingToken());
			assertThat(queue.queue().get(1).holding()).isFalse();
			assertThat(queue.queue().get(1).holder().application()).isEqualTo("orders");
			elsewhere.release();
			waiter.get().release();
			CompletableFuture.runAsync(held::release).get();
			assertThat(endpoint.locks().held()).isEmpty();
			assertThat(endpoint.key("nobody").queue()).isEmpty();
		});
	}

	@Test
	void isOnlyThereWhenExposed() {
		this.contextRunner.withPropertyValues("management.endpoints.web.exposure.include=health")
			.run((context) -> assertThat(context).doesNotHaveBean(LocksEndpoint.class));
	}

	@Test
	void needsTheActuator() {
		this.contextRunner
			.withClassLoader(new FilteredClassLoader("org.springframework.boot.actuate.endpoint.annotation"))
			.run((context) -> assertThat(context).hasNotFailed().doesNotHaveBean(LocksEndpoint.class));
	}

}
