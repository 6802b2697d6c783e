package dev.zklock.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.DistributedLock;
import dev.zklock.LockTimeoutException;
import dev.zklock.OnLockFailure;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import io.reactivex.rxjava3.core.Completable;
import io.reactivex.rxjava3.core.Flowable;
import io.reactivex.rxjava3.core.Maybe;
import io.reactivex.rxjava3.core.Observable;
import io.reactivex.rxjava3.core.Single;
import io.reactivex.rxjava3.disposables.Disposable;
import io.reactivex.rxjava3.processors.PublishProcessor;
import io.reactivex.rxjava3.subjects.CompletableSubject;
import io.reactivex.rxjava3.subjects.SingleSubject;
import io.reactivex.rxjava3.subscribers.TestSubscriber;
import org.junit.jupiter.api.Test;
import org.reactivestreams.Publisher;
import reactor.core.publisher.Flux;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Reactive results of any type that Spring's ReactiveAdapterRegistry adapts, here RxJava
 * 3's and a plain Reactive Streams {@code Publisher}, keep their lock from subscription
 * until they end: a multi-value type until its last item, a single-value type until its
 * value or completion; cancelling releases it.
 */
class ReactiveAdapterTypesTests extends AbstractReactiveLockTests {

	@Test
	void singleLocksFromSubscriptionUntilItsValue() {
		this.contextRunner.withBean(RxReports.class).run((context) -> {
			RxReports reports = context.getBean(RxReports.class);
			Single<String> report = reports.report();
			assertThat(reports.calls()).isZero();
			assertThat(heldElsewhere("rx-report")).as("not held before subscription").isFalse();
			var observer = report.test();
			await().atMost(Duration.ofSeconds(30)).until(() -> reports.calls() == 1);
			assertThat(heldElsewhere("rx-report")).as("held while the Single is pending").isTrue();
			reports.finishReport("done");
			observer.awaitDone(30, TimeUnit.SECONDS).assertValue("done");
			assertReleased("rx-report");
		});
	}

	@Test
	void completableLocksUntilItCompletes() {
		this.contextRunner.withBean(RxReports.class).run((context) -> {
			RxReports reports = context.getBean(RxReports.class);
			var observer = reports.purge().test();
			await().atMost(Duration.ofSeconds(30)).until(() -> heldElsewhere("rx-purge"));
			reports.finishPurge();
			observer.awaitDone(30, TimeUnit.SECONDS).assertComplete();
			assertReleased("rx-purge");
		});
	}

	@Test
	void flowableHoldsItsLockUntilTheStreamEnds() {
		this.contextRunner.withBean(RxReports.class).run((context) -> {
			RxReports reports = context.getBean(RxReports.class);
			TestSubscriber<Integer> subscriber = reports.rows().test();
			await().atMost(Duration.ofSeconds(30)).until(reports::rowsSubscribed);
			reports.emitRow(1);
			subscriber.awaitCount(1);
			assertThat(heldElsewhere("rx-rows")).as("held after the first item").isTrue();
			reports.emitRow(2);
			subscriber.awaitCount(2);
			assertThat(heldElsewhere("rx-rows")).as("held after the second item").isTrue();
			reports.finishRows();
			subscriber.awaitDone(30, TimeUnit.SECONDS).assertValues(1, 2).assertComplete();
			assertReleased("rx-rows");
		});
	}

	@Test
	void observableHoldsItsLockWhileItEmits() {
		this.contextRunner.withBean(RxReports.class).run((context) -> {
			RxReports reports = context.getBean(RxReports.class);
			List<Boolean> heldDuringItems = reports.lines()
				.map((line) -> heldElsewhere("rx-lines"))
				.toList()
				.blockingGet();
			assertThat(heldDuringItems).containsExactly(true, true, true);
			assertReleased("rx-lines");
		});
	}

	@Test
	void reactiveStreamsPublisherHoldsItsLockWhileItEmits() {
		this.contextRunner.withBean(RxReports.class).run((context) -> {
			RxReports reports = context.getBean(RxReports.class);
			List<Boolean> heldDuringItems = Flux.from(reports.publisher())
				.map((item) -> heldElsewhere("rs-publisher"))
				.collectList()
				.block(Duration.ofSeconds(30));
			assertThat(heldDuringItems).containsExactly(true, true, true);
			assertReleased("rs-publisher");
		});
	}

	@Test
	void disposedFlowableAndSingleReleaseTheirLocks() {
		this.contextRunner.withBean(RxReports.class).run((context) -> {
			RxReports reports = context.getBean(RxReports.class);
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			Disposable flowable = reports.endless().subscribe();
			await().atMost(Duration.ofSeconds(30)).until(() -> heldElsewhere("rx-endless"));
			flowable.dispose();
			await().atMost(Duration.ofSeconds(30))
				.alias("lock released after the Flowable was disposed")
				.until(() -> registry.keysInUse() == 0);
			Disposable single = reports.report().subscribe();
			await().atMost(Duration.ofSeconds(30)).until(() -> heldElsewhere("rx-report"));
			single.dispose();
			await().atMost(Duration.ofSeconds(30))
				.alias("lock released after the Single was disposed")
				.until(() -> registry.keysInUse() == 0);
		});
	}

	@Test
	void resultsThatCannotLockAnswerThroughTheirSignals() {
		this.contextRunner.withBean(RxReports.class).run((context) -> {
			RxReports reports = context.getBean(RxReports.class);
			AcquiredLock held = otherProcess.acquire("rx-report", Duration.ofSeconds(10));
			try {
				reports.reportNow().test().awaitDone(30, TimeUnit.SECONDS).assertError(LockTimeoutException.class);
				reports.reportIfFree().test().awaitDone(30, TimeUnit.SECONDS).assertComplete().assertNoValues();
				assertThat(reports.calls()).isZero();
			}
			finally {
				held.release();
			}
		});
	}

	@Test
	void aSingleThatWouldSkipOnFailureFailsStartUp() {
		this.contextRunner.withBean(SkippingSingle.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("SkippingSingle.report()")
				.hasMessageContaining("io.reactivex.rxjava3.core.Single")
				.hasMessageContaining("cannot complete empty");
		});
	}

	/**
	 * Asserts that another process can take the key, waiting for the release to reach
	 * ZooKeeper.
	 */
	private static void assertReleased(String key) {
		otherProcess.acquire(key, Duration.ofSeconds(30)).release();
	}

	static class RxReports {

		private final AtomicInteger calls = new AtomicInteger();

		private final SingleSubject<String> reportResult = SingleSubject.create();

		private final CompletableSubject purged = CompletableSubject.create();

		private final PublishProcessor<Integer> rows = PublishProcessor.create();

		int calls() {
			return this.calls.get();
		}

		void finishReport(String report) {
			this.reportResult.onSuccess(report);
		}

		void finishPurge() {
			this.purged.onComplete();
		}

		boolean rowsSubscribed() {
			return this.rows.hasSubscribers();
		}

		void emitRow(int row) {
			this.rows.onNext(row);
		}

		void finishRows() {
			this.rows.onComplete();
		}

		@DistributedLock(key = "'rx-report'")
		Single<String> report() {
			this.calls.incrementAndGet();
			return this.reportResult;
		}

		@DistributedLock(key = "'rx-report'", waitTime = "0")
		Single<String> reportNow() {
			this.calls.incrementAndGet();
			return Single.just("never");
		}

		@DistributedLock(key = "'rx-report'", waitTime = "0", onFailure = OnLockFailure.SKIP)
		Maybe<String> reportIfFree() {
			this.calls.incrementAndGet();
			return Maybe.just("never");
		}

		@DistributedLock(key = "'rx-purge'")
		Completable purge() {
			return this.purged;
		}

		@DistributedLock(key = "'rx-rows'")
		Flowable<Integer> rows() {
			return this.rows;
		}

		@DistributedLock(key = "'rx-lines'")
		Observable<String> lines() {
			return Observable.just("a", "b", "c");
		}

		@DistributedLock(key = "'rx-endless'")
		Flowable<Long> endless() {
			return Flowable.never();
		}

		@DistributedLock(key = "'rs-publisher'")
		Publisher<Integer> publisher() {
			return Flowable.range(1, 3);
		}

	}

	static class SkippingSingle {

		@DistributedLock(key = "'rx-report'", onFailure = OnLockFailure.SKIP)
		Single<String> report() {
			return Single.just("never");
		}

	}

}
