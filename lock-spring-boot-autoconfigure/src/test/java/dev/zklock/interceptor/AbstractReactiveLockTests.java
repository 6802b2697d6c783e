package dev.zklock.interceptor;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.DistributedLock;
import dev.zklock.LockTimeoutException;
import dev.zklock.OnLockFailure;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;
import reactor.core.publisher.Sinks;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Applications on a real ZooKeeper server whose {@link ReactiveReports} lock around
 * Reactor results, and another process that tells whether one of their keys is held.
 */
abstract class AbstractReactiveLockTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	static ZooKeeperLockRegistry otherProcess;

	final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withBean(ReactiveReports.class);

	@BeforeAll
	static void connectOtherProcess() throws Exception {
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	static boolean heldElsewhere(String key) {
		try {
			otherProcess.acquire(key, Duration.ZERO).release();
			return false;
		}
		catch (LockTimeoutException ex) {
			return true;
		}
	}

	static class ReactiveReports {

		private final AtomicInteger calls = new AtomicInteger();

		private final Sinks.One<String> reportResult = Sinks.one();

		int calls() {
			return this.calls.get();
		}

		/**
		 * Completes the result of {@link #report()}.
		 * @param report the report
		 */
		void finishReport(String report) {
			this.reportResult.tryEmitValue(report).orThrow();
		}

		@DistributedLock(key = "'report'")
		Mono<String> report() {
			this.calls.incrementAndGet();
			return this.reportResult.asMono();
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
