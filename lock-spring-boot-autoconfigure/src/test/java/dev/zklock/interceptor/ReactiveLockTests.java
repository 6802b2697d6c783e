package dev.zklock.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.DistributedLock;
import dev.zklock.LockHandle;
import dev.zklock.LockLostException;
import dev.zklock.LockTimeoutException;
import dev.zklock.OnLockFailure;
import dev.zklock.ReactiveLockContext;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.QueuedLockNode;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.Disposable;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Signal;
import reactor.core.publisher.Sinks;
import reactor.util.context.Context;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Reactor results keep their lock from subscription until they terminate or are
 * cancelled, and a method that returns no result at all gets an error that names it.
 */
class ReactiveLockTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static ZooKeeperLockRegistry otherProcess;

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withBean(ReactiveReports.class);

	@BeforeAll
	static void connectOtherProcess() throws Exception {
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	@Test
	void monoLocksFromSubscriptionUntilItCompletes() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			Mono<String> report = reports.report();
			assertThat(reports.calls()).isZero();
			otherProcess.acquire("report", Duration.ofSeconds(10)).release();
			Mono<String> checked = report.doOnSubscribe((subscription) -> {
			})
				.zipWith(Mono.delay(Duration.ofMillis(150)).map((tick) -> heldElsewhere("report")),
						(value, held) -> value + (held ? " while held" : " while free"));
			assertThat(checked.block(Duration.ofSeconds(10))).isEqualTo("report while held");
			assertThat(reports.calls()).isOne();
			otherProcess.acquire("report", Duration.ofSeconds(2)).release();
		});
	}

	@Test
	void fluxLocksUntilItTerminatesAndReleasesWhenCancelled() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			List<Boolean> heldDuringElements = reports.rows()
				.map((row) -> heldElsewhere("rows"))
				.collectList()
				.block(Duration.ofSeconds(10));
			assertThat(heldDuringElements).containsExactly(true, true, true);
			otherProcess.acquire("rows", Duration.ofSeconds(5)).release();
			assertThat(reports.endlessRows().take(2).collectList().block(Duration.ofSeconds(10))).hasSize(2);
			otherProcess.acquire("rows", Duration.ofSeconds(5)).release();
		});
	}

	@Test
	void resultsThatCannotLockAnswerThroughTheirSignals() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			AcquiredLock held = otherProcess.acquire("report", Duration.ofSeconds(2));
			try {
				assertThatExceptionOfType(LockTimeoutException.class)
					.isThrownBy(() -> reports.reportNow().block(Duration.ofSeconds(10)));
				assertThat(reports.reportIfFree().block(Duration.ofSeconds(10))).isNull();
				assertThat(reports.calls()).isZero();
			}
			finally {
				held.release();
			}
		});
	}

	@Test
	void cancelledMonoReleasesItsLock() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			Disposable subscription = reports.awaitEvent().subscribe();
			await().atMost(Duration.ofSeconds(10)).until(() -> heldElsewhere("event"));
			subscription.dispose();
			await().atMost(Duration.ofSeconds(10))
				.alias("lock released after the Mono was cancelled")
				.until(() -> registry.keysInUse() == 0);
		});
	}

	@Test
	void monoThatTimesOutDownstreamReleasesItsLock() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			assertThatThrownBy(() -> reports.awaitOtherEvent().timeout(Duration.ofMillis(500)).block())
				.hasCauseInstanceOf(TimeoutException.class);
			assertThatNoException().as("another process can lock the key after the timeout")
				.isThrownBy(() -> otherProcess.acquire("other-event", Duration.ofSeconds(5)).release());
		});
	}

	@Test
	void monoMethodReturningNullGetsAClearErrorNotANullPointerException() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			assertThatIllegalStateException().isThrownBy(() -> reports.nullMono().block(Duration.ofSeconds(10)))
				.withMessageContaining("nullMono()")
				.withMessageContaining("returned null");
			assertThat(registry.keysInUse()).isZero();
		});
	}

	@Test
	void fluxMethodReturningNullGetsAClearErrorNotANullPointerException() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			assertThatIllegalStateException().isThrownBy(() -> reports.nullFlux().blockLast(Duration.ofSeconds(10)))
				.withMessageContaining("nullFlux()")
				.withMessageContaining("returned null");
			assertThat(registry.keysInUse()).isZero();
		});
	}

	@Test
	void fluxWhoseLockIsLostMidStreamEndsWithLockLostExceptionAfterItsItems() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			Sinks.Many<String> feed = Sinks.many().unicast().onBackpressureBuffer();
			List<String> received = new CopyOnWriteArrayList<>();
			CompletableFuture<List<Signal<String>>> signals = reports.feed("lost-feed", feed.asFlux())
				.doOnNext(received::add)
				.materialize()
				.collectList()
				.toFuture();
			feed.tryEmitNext("before").orThrow();
			await().atMost(Duration.ofSeconds(10)).until(() -> received.contains("before"));
			loseSession(context.getBean(CuratorFramework.class));
			feed.tryEmitNext("after").orThrow();
			feed.tryEmitComplete().orThrow();
			List<Signal<String>> result = signals.get(10, TimeUnit.SECONDS);
			assertThat(result).hasSize(3);
			assertThat(result.subList(0, 2)).extracting(Signal::get).containsExactly("before", "after");
			assertThat(result.get(2).getThrowable()).isInstanceOf(LockLostException.class)
				.hasMessageContaining("'lost-feed'");
		});
	}

	@Test
	void fluxThatFailsAfterItsLockWasLostCarriesTheLossAsSuppressed() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			Sinks.Many<String> feed = Sinks.many().unicast().onBackpressureBuffer();
			CompletableFuture<List<String>> items = reports.feed("broken-feed", feed.asFlux()).collectList().toFuture();
			await().atMost(Duration.ofSeconds(10)).until(() -> heldElsewhere("broken-feed"));
			loseSession(context.getBean(CuratorFramework.class));
			IllegalStateException failure = new IllegalStateException("feed broke");
			feed.tryEmitError(failure).orThrow();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> items.get(10, TimeUnit.SECONDS))
				.withCause(failure);
			assertThat(failure.getSuppressed()).singleElement().isInstanceOf(LockLostException.class);
		});
	}

	@Test
	void monoWhoseLockIsLostFailsWithLockLostException() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			Sinks.One<String> answer = Sinks.one();
			CompletableFuture<String> result = reports.answer("lost-answer", answer.asMono()).toFuture();
			await().atMost(Duration.ofSeconds(10)).until(() -> heldElsewhere("lost-answer"));
			loseSession(context.getBean(CuratorFramework.class));
			answer.tryEmitValue("late").orThrow();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> result.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
		});
	}

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
	 * Ends the client's ZooKeeper session and waits until its locks know: Curator tells
	 * its listeners about one connection state after the other, so once this test's
	 * listener hears that the client reconnected, the registry has heard that the session
	 * was lost.
	 */
	private static void loseSession(CuratorFramework client) throws Exception {
		CountDownLatch reconnected = new CountDownLatch(1);
		ConnectionStateListener listener = (source, state) -> {
			if (state == ConnectionState.RECONNECTED) {
				reconnected.countDown();
			}
		};
		client.getConnectionStateListenable().addListener(listener);
		try {
			client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
			assertThat(reconnected.await(10, TimeUnit.SECONDS)).as("client reconnected in a new session").isTrue();
		}
		finally {
			client.getConnectionStateListenable().removeListener(listener);
		}
	}

	private static boolean heldElsewhere(String key) {
		try {
			otherProcess.acquire(key, Duration.ZERO).release();
			return false;
		}
		catch (LockTimeoutException ex) {
			return true;
		}
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

	static class ReactiveReports {

		private final AtomicInteger calls = new AtomicInteger();

		int calls() {
			return this.calls.get();
		}

		@DistributedLock(key = "'report'")
		Mono<String> report() {
			this.calls.incrementAndGet();
			return Mono.delay(Duration.ofMillis(1000)).map((tick) -> "report");
		}

		@DistributedLock(key = "'report'", waitTime = "0")
		Mono<String> reportNow() {
			this.calls.incrementAndGet();
			return Mono.just("never");
		}

		@DistributedLock(key = "'report'", waitTime = "0", onFailure = OnLockFailure.SKIP)
		Mono<String> reportIfFree() {
			this.calls.incrementAndGet();
			return Mono.just("never");
		}

		@DistributedLock(key = "'rows'")
		Flux<Integer> rows() {
			return Flux.range(1, 3).delayElements(Duration.ofMillis(50));
		}

		@DistributedLock(key = "'rows'")
		Flux<Long> endlessRows() {
			return Flux.interval(Duration.ofMillis(20));
		}

		@DistributedLock(key = "'event'")
		Mono<String> awaitEvent() {
			return Mono.never();
		}

		@DistributedLock(key = "'other-event'")
		Mono<String> awaitOtherEvent() {
			return Mono.never();
		}

		@DistributedLock(key = "#key")
		Flux<String> feed(String key, Flux<String> items) {
			return items;
		}

		@DistributedLock(key = "#key")
		Mono<String> answer(String key, Mono<String> value) {
			return value;
		}

		@DistributedLock(key = "'tenant'")
		Mono<String> tenant() {
			return Mono.deferContextual((context) -> Mono.just(context.get("tenant")));
		}

		@DistributedLock(key = "'tenant'")
		Flux<String> tenants() {
			return Flux.deferContextual((context) -> Flux.just(context.<String>get("tenant")));
		}

		@DistributedLock(key = "'null-mono'")
		Mono<String> nullMono() {
			return null;
		}

		@DistributedLock(key = "'null-flux'")
		Flux<String> nullFlux() {
			return null;
		}

	}

}
