package dev.zklock.interceptor;

import java.time.Duration;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.zklock.DistributedLock;
import dev.zklock.LockTimeoutException;
import dev.zklock.OnLockFailure;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.convert.DurationStyle;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A {@code @Scheduled} job that runs once per tick across instances, and asynchronous
 * methods that keep their lock until their result completes, in real application contexts
 * sharing a ZooKeeper server.
 */
class ScheduledSingleRunTests {

	private static final String HOLD_AT_LEAST = "450ms";

	private static final List<Run> runs = new CopyOnWriteArrayList<>();

	private static final ThreadLocal<Long> tickedAt = new ThreadLocal<>();

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper);

	/**
	 * Each instance ticks every 500 ms and runs the job only if no instance holds its
	 * lock, which every run keeps for at least {@value #HOLD_AT_LEAST}: two runs, of
	 * either instance, are never closer than that. A run's tick starts before its lock is
	 * acquired, and the next run starts after that lock's release, so the next run starts
	 * at least {@value #HOLD_AT_LEAST} after the previous run's tick, however slowly the
	 * machine runs.
	 */
	@Test
	void scheduledJobRunsOncePerTickAcrossTwoInstances() {
		runs.clear();
		ApplicationContextRunner instances = this.contextRunner.withUserConfiguration(NightlyJobConfiguration.class);
		instances.run((first) -> instances.run((second) -> {
			int runsBeforeBothStarted = runs.size();
			await().atMost(Duration.ofSeconds(30)).until(() -> runs.size() >= runsBeforeBothStarted + 4);
		}));
		List<Run> inOrder = runs.stream().sorted(Comparator.comparingLong(Run::startedAt)).toList();
		Duration holdAtLeast = DurationStyle.detectAndParse(HOLD_AT_LEAST);
		for (int i = 1; i < inOrder.size(); i++) {
			Duration sincePreviousTick = Duration.ofNanos(inOrder.get(i).startedAt() - inOrder.get(i - 1).tickedAt());
			assertThat(sincePreviousTick).as("start of run %d after the tick of run %d", i, i - 1)
				.isGreaterThanOrEqualTo(holdAtLeast);
		}
	}

	@Test
	void asyncMethodKeepsItsLockUntilItsResultCompletes() throws Exception {
		ZooKeeperLockRegistry otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		this.contextRunner.withBean(ExportService.class).run((context) -> {
			ExportService exports = context.getBean(ExportService.class);
			CompletableFuture<String> result = exports.export();
			assertThat(result).isNotDone();
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> otherProcess.acquire("export", Duration.ofMillis(200)));
			exports.finish("exported");
			assertThat(result.get(30, TimeUnit.SECONDS)).isEqualTo("exported");
			otherProcess.acquire("export", Duration.ofSeconds(10)).release();
		});
	}

	@Test
	void asyncMethodThatCannotLockAnswersThroughItsResult() throws Exception {
		ZooKeeperLockRegistry otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
		this.contextRunner.withBean(ExportService.class).run((context) -> {
			ExportService exports = context.getBean(ExportService.class);
			AcquiredLock held = otherProcess.acquire("export", Duration.ofSeconds(10));
			try {
				assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> exports.exportNow().get())
					.withCauseInstanceOf(LockTimeoutException.class);
				assertThat(exports.exportIfFree().get()).isNull();
			}
			finally {
				held.release();
			}
		});
	}

	@Test
	void futureThatTheLockCannotFollowFailsStartUp() {
		this.contextRunner.withBean(FutureService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("FutureService.work()")
				.hasMessageContaining("returns java.util.concurrent.Future")
				.hasMessageContaining("return CompletableFuture, CompletionStage, Mono or Flux");
		});
	}

	@Test
	void publisherOfATypeNoReactiveAdapterMakesFailsStartUp() {
		this.contextRunner.withBean(PublisherService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("PublisherService.work()")
				.hasMessageContaining("returns " + ReportPublisher.class.getName());
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class NightlyJobConfiguration {

		@Bean
		ThreadPoolTaskScheduler taskScheduler() {
			ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
			scheduler.setTaskDecorator((tick) -> () -> {
				tickedAt.set(System.nanoTime());
				tick.run();
			});
			return scheduler;
		}

		@Bean
		NightlyJob nightlyJob() {
			return new NightlyJob();
		}

	}

	static class NightlyJob {

		@Scheduled(fixedRate = 500)
		@DistributedLock(key = "'nightly'", waitTime = "0", onFailure = OnLockFailure.SKIP, holdAtLeast = HOLD_AT_LEAST)
		void run() {
			runs.add(new Run(tickedAt.get(), System.nanoTime()));
		}

	}

	/**
	 * A run of the nightly job, on the {@link System#nanoTime()} scale.
	 *
	 * @param tickedAt when its tick started, before the lock was asked for
	 * @param startedAt when it started, under the lock
	 */
	record Run(long tickedAt, long startedAt) {

	}

	static class ExportService {

		private volatile CompletableFuture<String> pending;

		@DistributedLock(key = "'export'")
		CompletableFuture<String> export() {
			this.pending = new CompletableFuture<>();
			return this.pending;
		}

		void finish(String result) {
			this.pending.complete(result);
		}

		@DistributedLock(key = "'export'", waitTime = "0")
		CompletableFuture<String> exportNow() {
			return CompletableFuture.completedFuture("never");
		}

		@DistributedLock(key = "'export'", waitTime = "0", onFailure = OnLockFailure.SKIP)
		CompletableFuture<String> exportIfFree() {
			return CompletableFuture.completedFuture("never");
		}

	}

	static class PublisherService {

		@DistributedLock(key = "'k'")
		ReportPublisher work() {
			return new ReportPublisher();
		}

	}

	/**
	 * A publisher type of its own, which Spring's ReactiveAdapterRegistry adapts only to
	 * a plain {@code Publisher}, not back to this type.
	 */
	static class ReportPublisher implements org.reactivestreams.Publisher<String> {

		@Override
		public void subscribe(org.reactivestreams.Subscriber<? super String> subscriber) {
			reactor.core.publisher.Mono.just("").subscribe(subscriber);
		}

	}

	static class FutureService {

		@DistributedLock(key = "'k'")
		java.util.concurrent.Future<String> work() {
			return CompletableFuture.completedFuture("");
		}

	}

}
