package dev.zklock.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeoutException;

import dev.zklock.LockTimeoutException;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.Test;
import reactor.core.Disposable;
import reactor.core.publisher.Mono;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;
import static org.awaitility.Awaitility.await;

/**
 * Reactor results keep their lock from subscription until they terminate or are
 * cancelled, and those that cannot lock answer through their signals.
 */
class ReactiveLockLifetimeTests extends AbstractReactiveLockTests {

	@Test
	void monoLocksFromSubscriptionUntilItCompletes() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			Mono<String> report = reports.report();
			assertThat(reports.calls()).isZero();
			otherProcess.acquire("report", Duration.ofSeconds(10)).release();
			CompletableFuture<String> subscribed = report.toFuture();
			await().atMost(Duration.ofSeconds(30)).until(() -> reports.calls() == 1);
			assertThat(heldElsewhere("report")).as("held while the result is pending").isTrue();
			reports.finishReport("report");
			assertThat(subscribed).succeedsWithin(Duration.ofSeconds(30)).isEqualTo("report");
			assertThat(reports.calls()).isOne();
			otherProcess.acquire("report", Duration.ofSeconds(10)).release();
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

}
