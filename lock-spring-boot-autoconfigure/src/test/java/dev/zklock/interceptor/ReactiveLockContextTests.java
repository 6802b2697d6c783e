package dev.zklock.interceptor;

import java.time.Duration;
import java.util.List;

import dev.zklock.DistributedLock;
import dev.zklock.LockHandle;
import dev.zklock.ReactiveLockContext;
import dev.zklock.zookeeper.QueuedLockNode;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.util.context.Context;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * Locked Reactor results find their lock in the Reactor context, on whichever thread they
 * run, and see the context of their subscriber too.
 */
class ReactiveLockContextTests extends AbstractReactiveLockTests {

	@Test
	void monoFindsItsLockInTheReactorContext() {
		this.contextRunner.withBean(Ledger.class).run((context) -> {
			Ledger ledger = context.getBean(Ledger.class);
			Sighting sighting = ledger.entry("7").block(Duration.ofSeconds(10));
			assertThat(sighting.lock().key()).isEqualTo("ledger:7");
			assertThat(sighting.lock()).isSameAs(sighting.whileBuilding());
			assertThat(sighting.lock().fencingToken()).isEqualTo(sighting.zooKeeperToken());
			assertThat(sighting.valid()).isTrue();
			assertThat(sighting.thread()).as("a Reactor thread that holds no lock").startsWith("parallel-");
		});
	}

	@Test
	void fluxFindsItsLockInTheReactorContext() {
		this.contextRunner.withBean(Ledger.class).run((context) -> {
			Ledger ledger = context.getBean(Ledger.class);
			List<Sighting> sightings = ledger.entries("8").collectList().block(Duration.ofSeconds(10));
			assertThat(sightings).hasSize(2).allSatisfy((sighting) -> {
				assertThat(sighting.lock().key()).isEqualTo("ledger:8");
				assertThat(sighting.lock()).isSameAs(sighting.whileBuilding());
				assertThat(sighting.lock().fencingToken()).isEqualTo(sighting.zooKeeperToken());
				assertThat(sighting.valid()).isTrue();
				assertThat(sighting.thread()).as("a Reactor thread that holds no lock").startsWith("parallel-");
			});
		});
	}

	@Test
	void lockedPublishersSeeTheSubscribersContextToo() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			Context tenant = Context.of("tenant", "acme");
			assertThat(reports.tenant().contextWrite(tenant).block(Duration.ofSeconds(10))).isEqualTo("acme");
			assertThat(reports.tenants().contextWrite(tenant).collectList().block(Duration.ofSeconds(10)))
				.containsExactly("acme");
		});
	}

	@Test
	void currentLockOutsideALockedPublisherFails() {
		assertThatIllegalStateException().isThrownBy(() -> ReactiveLockContext.currentLock().block())
			.withMessageContaining("holds no distributed lock");
	}

	/**
	 * What a locked publisher saw of its lock.
	 *
	 * @param lock the lock found in the Reactor context
	 * @param whileBuilding the lock the method's thread held while it built its publisher
	 * @param zooKeeperToken the fencing token of the lock's holding node in ZooKeeper
	 * @param valid whether the lock was valid then
	 * @param thread the thread that found the lock
	 */
	record Sighting(LockHandle lock, LockHandle whileBuilding, long zooKeeperToken, boolean valid, String thread) {

	}

	static class Ledger {

		private final ZooKeeperLockRegistry registry;

		Ledger(ZooKeeperLockRegistry registry) {
			this.registry = registry;
		}

		@DistributedLock(key = "'ledger:' + #account")
		Mono<Sighting> entry(String account) {
			LockHandle whileBuilding = LockHandle.current();
			return Mono.delay(Duration.ofMillis(10))
				.then(ReactiveLockContext.currentLock())
				.map((lock) -> sighting(lock, whileBuilding));
		}

		@DistributedLock(key = "'ledger:' + #account")
		Flux<Sighting> entries(String account) {
			LockHandle whileBuilding = LockHandle.current();
			return Flux.interval(Duration.ofMillis(10))
				.take(2)
				.concatMap((tick) -> ReactiveLockContext.currentLock())
				.map((lock) -> sighting(lock, whileBuilding));
		}

		private Sighting sighting(LockHandle lock, LockHandle whileBuilding) {
			long zooKeeperToken = this.registry.queueOf(lock.key())
				.stream()
				.filter(QueuedLockNode::holding)
				.findFirst()
				.orElseThrow()
				.fencingToken();
			return new Sighting(lock, whileBuilding, zooKeeperToken, lock.isValid(), Thread.currentThread().getName());
		}

	}

}
