package dev.zklock.scheduling;

import java.lang.reflect.Method;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.LocalDate;
import java.time.ZoneId;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.UnaryOperator;

import dev.zklock.ClusteredJob;
import dev.zklock.LockHandle;
import dev.zklock.MissedRuns;
import dev.zklock.actuate.ClusteredJobsEndpoint;
import dev.zklock.actuate.ClusteredJobsEndpoint.JobDescriptor;
import dev.zklock.autoconfigure.actuate.ClusteredJobsEndpointAutoConfiguration;
import dev.zklock.autoconfigure.scheduling.ClusteredJobAutoConfiguration;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.TickHistory;
import dev.zklock.testsupport.TickHistory.Run;
import dev.zklock.testsupport.ZooKeeperTestServer;
import io.micrometer.core.instrument.MeterRegistry;
import io.micrometer.core.instrument.Timer;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.actuate.scheduling.ScheduledTasksEndpoint;
import org.springframework.boot.actuate.scheduling.ScheduledTasksEndpoint.CustomTriggerTaskDescriptor;
import org.springframework.boot.actuate.scheduling.ScheduledTasksEndpoint.IntervalTaskDescriptor;
import org.springframework.boot.actuate.scheduling.ScheduledTasksEndpoint.ScheduledTasksDescriptor;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;
import org.springframework.scheduling.config.ScheduledTaskHolder;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.scheduling.config.TaskExecutionOutcome;
import org.springframework.scheduling.config.TriggerTask;
import org.springframework.scheduling.support.CronTrigger;
import org.springframework.scheduling.support.ScheduledMethodRunnable;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Clustered jobs in real application contexts sharing a ZooKeeper server, each instance's
 * scheduler on a clock of its own: every scheduled time runs once, on one instance, runs
 * never overlap, and the record, the endpoint and the meters say what happened.
 */
class ClusteredJobTests {

	private static final Duration PERIOD = Duration.ofMillis(400);

	/** How far apart the instances' schedulers' clocks are: less than half the period. */
	private static final Duration SKEW = Duration.ofMillis(150);

	private static final Duration AWAIT = Duration.ofSeconds(60);

	private static final List<Run> runs = new CopyOnWriteArrayList<>();

	private static final List<Throwable> schedulerErrors = new CopyOnWriteArrayList<>();

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withConfiguration(AutoConfigurations.of(ClusteredJobAutoConfiguration.class))
		.withPropertyValues("test.run-millis=1", "test.clock-offset-millis=0", "test.instance=only");

	@BeforeEach
	void clearRuns() {
		runs.clear();
		schedulerErrors.clear();
	}

	@Test
	void fixedRateJobRunsEachScheduledTimeOnceAcrossInstancesWithSkewedClocks() {
		ApplicationContextRunner instances = this.contextRunner.withUserConfiguration(FixedRateJob.class)
			.withPropertyValues("test.job=fixed-rate");
		runAheadAndBehind(instances, 15);
		TickHistory history = TickHistory.of(runs)
			.eachScheduledTimeRanOnce()
			.noRunsOverlapped()
			.fencingTokensIncrease();
		assertThat(history.everyScheduledTimeRanOrWasCovered((time) -> time.plus(PERIOD), SKEW)).isEmpty();
		assertThat(history.runs())
			.allSatisfy((run) -> assertThat(run.scheduledTime().toEpochMilli() % PERIOD.toMillis())
				.as("fixed-rate times are multiples of the period since the epoch")
				.isZero());
	}

	@Test
	void runsLongerThanThePeriodRunLateAfterEachOtherAndCoverTheTimesTheyMissed() {
		ApplicationContextRunner instances = this.contextRunner.withUserConfiguration(FixedRateJob.class)
			.withPropertyValues("test.job=long-runs",
					"test.run-millis=" + PERIOD.multipliedBy(3).dividedBy(2).toMillis());
		runAheadAndBehind(instances, 8);
		TickHistory history = TickHistory.of(runs).eachScheduledTimeRanOnce().noRunsOverlapped();
		assertThat(history.everyScheduledTimeRanOrWasCovered((time) -> time.plus(PERIOD), SKEW))
			.as("times covered by late runs")
			.isNotEmpty();
		for (Run run : history.runs()) {
			assertThat(run.startMillis()).as("start of %s, late by less than a run and a period", run)
				.isLessThan(run.scheduledTime().plus(PERIOD.multipliedBy(5)).toEpochMilli());
		}
	}

	@Test
	void cronJobRunsEachSecondOnceAcrossInstances() {
		ApplicationContextRunner instances = this.contextRunner.withUserConfiguration(CronJob.class);
		runAheadAndBehind(instances, 4);
		TickHistory history = TickHistory.of(runs).eachScheduledTimeRanOnce().noRunsOverlapped();
		assertThat(history.everyScheduledTimeRanOrWasCovered((time) -> time.plusSeconds(1), SKEW)).isEmpty();
	}

	@Test
	void triggerTaskOfASchedulingConfigurerForAJobsMethodRunsEachTimeOnceAcrossInstances() {
		ApplicationContextRunner instances = this.contextRunner.withUserConfiguration(ConfiguredJob.class);
		runAheadAndBehind(instances, 4);
		assertThat(schedulerErrors).as("calls of the method outside the job, where LockHandle.current() fails")
			.isEmpty();
		TickHistory history = TickHistory.of(runs).eachScheduledTimeRanOnce().noRunsOverlapped();
		assertThat(history.everyScheduledTimeRanOrWasCovered((time) -> time.plusSeconds(1), SKEW)).isEmpty();
		assertThat(history.runs()).allSatisfy((run) -> assertThat(run.scheduledTime().getNano())
			.as("the configurer's cron trigger's times, whole seconds")
			.isZero());
	}

	@Test
	void springsScheduledTasksEndpointListsAJobAsDeclaredAndAsTheTriggerTaskThatRunsIt() {
		String method = FixedRateJob.class.getName() + ".tick";
		this.contextRunner.withUserConfiguration(FixedRateJob.class)
			.withPropertyValues("test.job=listed")
			.run((context) -> await().atMost(AWAIT).untilAsserted(() -> {
				// asserted again while no run ended yet, or one is in flight (its outcome
				// "started")
				ScheduledTasksDescriptor tasks = new ScheduledTasksEndpoint(
						context.getBeansOfType(ScheduledTaskHolder.class).values())
					.scheduledTasks();
				assertThat(tasks.getFixedRate()).as("the @Scheduled task, replaced before it was scheduled")
					.singleElement()
					.satisfies((declared) -> {
						assertThat(declared.getRunnable().getTarget()).isEqualTo(method);
						assertThat(((IntervalTaskDescriptor) declared).getInterval()).isEqualTo(400);
						assertThat(declared.getNextExecution()).as("next execution").isNull();
						assertThat(declared.getLastExecution()).as("last execution").isNotNull();
						assertThat(declared.getLastExecution().getStatus()).as("the last run's outcome")
							.isEqualTo(TaskExecutionOutcome.Status.SUCCESS);
					});
				assertThat(tasks.getCustom()).as("the job's trigger task").singleElement().satisfies((job) -> {
					assertThat(job.getRunnable().getTarget()).isEqualTo(method);
					assertThat(((CustomTriggerTaskDescriptor) job).getTrigger()).isEqualTo(method);
					assertThat(job.getNextExecution()).as("next execution").isNotNull();
					assertThat(job.getLastExecution()).as("last execution").isNotNull();
				});
			}));
	}

	@Test
	void fixedDelayJobRunsItsDelayAfterTheEndOfTheLastRunWhereverItRan() {
		ApplicationContextRunner instances = this.contextRunner.withUserConfiguration(FixedDelayJob.class);
		runAheadAndBehind(instances, 8);
		TickHistory history = TickHistory.of(runs).eachScheduledTimeRanOnce().noRunsOverlapped();
		List<Run> inOrder = history.runs();
		for (int i = 1; i < inOrder.size(); i++) {
			assertThat(inOrder.get(i).startMillis())
				.as("start of %s after the end of %s and the delay", inOrder.get(i), inOrder.get(i - 1))
				.isGreaterThanOrEqualTo(inOrder.get(i - 1).endMillis() + PERIOD.toMillis() - SKEW.toMillis());
		}
	}

	@Test
	void recordEndpointAndMetersTellWhatEachInstanceDid() {
		ApplicationContextRunner instances = this.contextRunner.withUserConfiguration(FixedRateJob.class)
			.withConfiguration(AutoConfigurations.of(ClusteredJobsEndpointAutoConfiguration.class))
			.withBean(SimpleMeterRegistry.class)
			.withPropertyValues("test.job=observed", "spring.application.name=orders",
					"management.endpoints.web.exposure.include=clusteredjobs");
		instances.withPropertyValues("test.instance=ahead", "test.clock-offset-millis=" + SKEW.toMillis())
			.run((ahead) -> instances.withPropertyValues("test.instance=behind").run((behind) -> {
				await().atMost(AWAIT).until(() -> runs.size() >= 5);
				List<JobDescriptor> jobs = behind.getBean(ClusteredJobsEndpoint.class).jobs().jobs();
				assertThat(jobs).singleElement().satisfies((job) -> {
					assertThat(job.name()).isEqualTo("observed");
					assertThat(job.method()).isEqualTo(FixedRateJob.class.getName() + ".tick()");
					assertThat(job.path()).isEqualTo("/scheduled-jobs/observed");
					assertThat(job.lastRun()).isNotNull();
					assertThat(job.lastRun().instance()).startsWith("orders@")
						.endsWith("/" + ProcessHandle.current().pid());
					assertThat(job.lastRun().fencingToken()).isPositive();
				});
				await().atMost(AWAIT)
					.until(() -> ranOn(ahead.getBean(MeterRegistry.class))
							+ ranOn(behind.getBean(MeterRegistry.class)) == runs.size());
				assertThat(firings(ahead.getBean(MeterRegistry.class), "already-ran")
						+ firings(behind.getBean(MeterRegistry.class), "already-ran"))
					.isPositive();
				assertThat(ahead.getBean(MeterRegistry.class)
					.get(ClusteredJobMetrics.LATENESS)
					.tag("job", "observed")
					.timer()
					.count()).isEqualTo(ranOn(ahead.getBean(MeterRegistry.class)));
			}));
	}

	@Test
	void failedRunIsRecordedAndItsExceptionReachesTheScheduler() {
		this.contextRunner.withUserConfiguration(FailingJob.class)
			.withBean(SimpleMeterRegistry.class)
			.run((context) -> {
				await().atMost(AWAIT).until(() -> !schedulerErrors.isEmpty());
				assertThat(schedulerErrors.get(0)).isInstanceOf(IllegalStateException.class)
					.hasMessage("no orders today");
				await().atMost(AWAIT)
					.untilAsserted(() -> assertThat(context.getBean(JobRecords.class).read("failing"))
						.extracting(JobRecord::status)
						.isEqualTo(JobRecord.Status.FAILED));
				assertThat(firings(context.getBean(MeterRegistry.class), "failed")).isPositive();
			});
	}

	@Test
	void missedRunsAreCaughtUpWithOneRunAtStartUpWhenTheyAreToBe() throws Exception {
		Instant lastNewYear = lastNewYear();
		recordRun("yearly", lastNewYear.atZone(ZoneId.systemDefault()).minusYears(3).toInstant());
		this.contextRunner.withUserConfiguration(YearlyJob.class)
			.withPropertyValues("distributed-lock.scheduling.missed-runs=run-once")
			.run((context) -> await().atMost(AWAIT).until(() -> !runs.isEmpty()));
		assertThat(runs).singleElement().extracting(Run::scheduledTime).isEqualTo(lastNewYear);
	}

	@Test
	void missedRunsAreSkippedByDefault() throws Exception {
		Instant missed = lastNewYear().atZone(ZoneId.systemDefault()).minusYears(1).toInstant();
		recordRun("yearly", missed);
		this.contextRunner.withUserConfiguration(YearlyJob.class, FixedRateJob.class)
			.withPropertyValues("test.job=witness")
			.run((context) -> {
				await().atMost(AWAIT).until(() -> runs.size() >= 3);
				assertThat(runs).extracting(Run::instance).containsOnly("only");
				assertThat(context.getBean(JobRecords.class).read("yearly").scheduledTime()).isEqualTo(missed);
			});
	}

	@Test
	void annotationCatchesUpWhateverTheDefault() throws Exception {
		Instant lastNewYear = lastNewYear();
		recordRun("yearly-catch-up", lastNewYear.atZone(ZoneId.systemDefault()).minusYears(1).toInstant());
		this.contextRunner.withUserConfiguration(YearlyCatchUpJob.class)
			.run((context) -> await().atMost(AWAIT).until(() -> !runs.isEmpty()));
		assertThat(runs).singleElement().extracting(Run::scheduledTime).isEqualTo(lastNewYear);
	}

	/**
	 * Runs two instances, one whose scheduler's clock is {@link #SKEW} ahead, until the
	 * jobs ran at least a number of times.
	 */
	private static void runAheadAndBehind(ApplicationContextRunner instances, int runCount) {
		instances.withPropertyValues("test.instance=ahead", "test.clock-offset-millis=" + SKEW.toMillis())
			.run((ahead) -> instances.withPropertyValues("test.instance=behind")
				.run((behind) -> await().atMost(AWAIT).until(() -> runs.size() >= runCount)));
	}

	private static Instant lastNewYear() {
		return LocalDate.now().withDayOfYear(1).atStartOfDay(ZoneId.systemDefault()).toInstant();
	}

	private static void recordRun(String job, Instant scheduledTime) throws Exception {
		JobRecords records = new JobRecords(zookeeper.newClient(), "/scheduled-jobs");
		JobRecord run = JobRecord.claimed(job, scheduledTime, "earlier", scheduledTime, 1);
		assertThat(records.claim(run, records.readVersioned(job))).isNotNegative();
	}

	private static long ranOn(MeterRegistry registry) {
		return firings(registry, "ran");
	}

	private static long firings(MeterRegistry registry, String outcome) {
		Timer timer = registry.find(ClusteredJobMetrics.FIRINGS).tag("outcome", outcome).timer();
		return (timer != null) ? timer.count() : 0;
	}

	/**
	 * Records the run of a job, as {@link Run}, after running for
	 * {@code test.run-millis}: the scheduled time that the job's record says it claimed,
	 * and the fencing token of its lock.
	 */
	static final class RunRecorder {

		private final JobRecords records;

		private final String instance;

		private final long runMillis;

		RunRecorder(JobRecords records, @Value("${test.instance}") String instance,
				@Value("${test.run-millis}") long runMillis) {
			this.records = records;
			this.instance = instance;
			this.runMillis = runMillis;
		}

		void run(String job) throws InterruptedException {
			long start = System.currentTimeMillis();
			JobRecord claim = this.records.read(job);
			Thread.sleep(this.runMillis);
			runs.add(new Run(claim.scheduledTime(), this.instance, start, System.currentTimeMillis(),
					LockHandle.current().fencingToken()));
		}

	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class SchedulerConfiguration {

		@Bean
		ThreadPoolTaskScheduler taskScheduler(@Value("${test.clock-offset-millis}") long offset) {
			ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
			scheduler.setClock(Clock.offset(Clock.systemUTC(), Duration.ofMillis(offset)));
			scheduler.setErrorHandler(schedulerErrors::add);
			return scheduler;
		}

		@Bean
		RunRecorder runRecorder(JobRecords records, @Value("${test.instance}") String instance,
				@Value("${test.run-millis}") long runMillis) {
			return new RunRecorder(records, instance, runMillis);
		}

	}

	@Import(SchedulerConfiguration.class)
	static class FixedRateJob {

		private final RunRecorder recorder;

		private final String job;

		FixedRateJob(RunRecorder recorder, @Value("${test.job}") String job) {
			this.recorder = recorder;
			this.job = job;
		}

		@Scheduled(fixedRate = 400)
		@ClusteredJob(name = "${test.job}")
		void tick() throws InterruptedException {
			this.recorder.run(this.job);
		}

	}

	@Import(SchedulerConfiguration.class)
	static class CronJob {

		private final RunRecorder recorder;

		CronJob(RunRecorder recorder) {
			this.recorder = recorder;
		}

		@Scheduled(cron = "* * * * * *")
		@ClusteredJob(name = "every-second")
		void tick() throws InterruptedException {
			this.recorder.run("every-second");
		}

	}

	/**
	 * A job whose method an application's {@link SchedulingConfigurer} schedules: its
	 * {@code @Scheduled} is disabled ({@code "-"}), and the configurer registers a
	 * trigger task for it.
	 */
	@Import(SchedulerConfiguration.class)
	static class ConfiguredJob implements SchedulingConfigurer {

		private final RunRecorder recorder;

		ConfiguredJob(RunRecorder recorder) {
			this.recorder = recorder;
		}

		// tag::configurer[]
		@Scheduled(cron = Scheduled.CRON_DISABLED)
		@ClusteredJob(name = "configured")
		void tick() throws InterruptedException {
			this.recorder.run("configured");
		}

		@Override
		public void configureTasks(ScheduledTaskRegistrar registrar) {
			Method tick = ReflectionUtils.findMethod(ConfiguredJob.class, "tick");
			registrar.addTriggerTask(
					new TriggerTask(new ScheduledMethodRunnable(this, tick), new CronTrigger("* * * * * *")));
		}
		// end::configurer[]

	}

	@Import(SchedulerConfiguration.class)
	static class FixedDelayJob {

		private final RunRecorder recorder;

		FixedDelayJob(RunRecorder recorder) {
			this.recorder = recorder;
		}

		@Scheduled(fixedDelay = 400)
		@ClusteredJob(name = "fixed-delay")
		void tick() throws InterruptedException {
			this.recorder.run("fixed-delay");
		}

	}

	@Import(SchedulerConfiguration.class)
	static class FailingJob {

		@Scheduled(fixedRate = 400)
		@ClusteredJob(name = "failing")
		void tick() {
			throw new IllegalStateException("no orders today");
		}

	}

	@Import(SchedulerConfiguration.class)
	static class YearlyJob {

		private final RunRecorder recorder;

		YearlyJob(RunRecorder recorder) {
			this.recorder = recorder;
		}

		@Scheduled(cron = "0 0 0 1 1 *")
		@ClusteredJob(name = "yearly")
		void tick() throws InterruptedException {
			this.recorder.run("yearly");
		}

	}

	@Import(SchedulerConfiguration.class)
	static class YearlyCatchUpJob {

		private final RunRecorder recorder;

		YearlyCatchUpJob(RunRecorder recorder) {
			this.recorder = recorder;
		}

		@Scheduled(cron = "0 0 0 1 1 *")
		@ClusteredJob(name = "yearly-catch-up", missedRuns = MissedRuns.RUN_ONCE)
		void tick() throws InterruptedException {
			this.recorder.run("yearly-catch-up");
		}

	}

}
