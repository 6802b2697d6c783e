package dev.zklock.scheduling;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

import dev.zklock.LockTemplate;
import dev.zklock.MissedRuns;
import org.jspecify.annotations.Nullable;

import org.springframework.core.Ordered;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.CronTask;
import org.springframework.scheduling.config.FixedDelayTask;
import org.springframework.scheduling.config.FixedRateTask;
import org.springframework.scheduling.config.IntervalTask;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.scheduling.config.Task;
import org.springframework.scheduling.config.TriggerTask;

/**
 * Replaces the scheduled task of each {@link dev.zklock.ClusteredJob} method with one
 * that runs it once per scheduled time across the instances (a {@link ClusteredJobTask}),
 * on the same scheduler.
 * <p>
 * Spring registers the tasks of {@code @Scheduled} methods with the
 * {@link ScheduledTaskRegistrar} before it schedules any, and hands the registrar to the
 * {@link SchedulingConfigurer}s in between: this one takes each job's task out of the
 * registrar's lists and adds a trigger task in its place, with the job's timetable: the
 * cron trigger's times, the multiples of the fixed rate since the epoch, or the fixed
 * delay after the recorded end of the last run. A trigger task that an application's
 * configurer registered for a job's method (a {@code ScheduledMethodRunnable}) is taken
 * over too, its trigger asked for the time after each scheduled time. It finds a job's
 * task by the description that Spring gives the task of a method (its declaring class and
 * name), and fails start-up if a job has no task, or more than one: such a job would
 * otherwise run on every instance. It checks the records' root before it hands the jobs
 * over (see {@link JobRecords#checkRoot()}), so that a guarded root that somebody else
 * made fails start-up.
 */
public class ClusteredJobSchedulingConfigurer implements SchedulingConfigurer, Ordered {

	private final ClusteredJobAnnotationBeanPostProcessor jobs;

	private final LockTemplate lockTemplate;

	private final JobRecords records;

	private final MissedRuns missedRuns;

	private final Duration lockWait;

	private final String instance;

	private final @Nullable ClusteredJobMetrics metrics;

	/**
	 * Creates the configurer.
	 * @param jobs the post-processor that found the jobs
	 * @param lockTemplate the template of the jobs' locks
	 * @param records the jobs' records
	 * @param missedRuns what the jobs whose annotation says {@link MissedRuns#DEFAULT} do
	 * about missed runs
	 * @param lockWait the longest a firing waits for its job's lock
	 * @param instance how the records name this instance
	 * @param metrics the jobs' meters, or {@code null} for none
	 * @throws IllegalArgumentException if {@code missedRuns} is
	 * {@link MissedRuns#DEFAULT} or the lock wait is negative
	 */
	public ClusteredJobSchedulingConfigurer(ClusteredJobAnnotationBeanPostProcessor jobs, LockTemplate lockTemplate,
			JobRecords records, MissedRuns missedRuns, Duration lockWait, String instance,
			@Nullable ClusteredJobMetrics metrics) {
		if (missedRuns == MissedRuns.DEFAULT) {
			throw new IllegalArgumentException("The default of missed runs must be RUN_ONCE or SKIP, not DEFAULT");
		}
		if (lockWait.isNegative()) {
			throw new IllegalArgumentException("The lock wait must not be negative, but was " + lockWait);
		}
		this.jobs = jobs;
		this.lockTemplate = lockTemplate;
		this.records = records;
		this.missedRuns = missedRuns;
		this.lockWait = lockWait;
		this.instance = instance;
		this.metrics = metrics;
	}

	/**
	 * Runs after the application's configurers, so that it sees the tasks they registered
	 * too.
	 * @return {@link Ordered#LOWEST_PRECEDENCE}
	 */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

	@Override
	public void configureTasks(ScheduledTaskRegistrar registrar) {
		Map<String, ClusteredJobSpec> byTaskName = new HashMap<>();
		Collection<ClusteredJobSpec> specs = this.jobs.schedule();
		if (!specs.isEmpty()) {
			// a guarded root that a stranger made fails start-up, as the lock root does
			this.records.checkRoot();
		}
		specs.forEach((spec) -> spec.taskNames().forEach((name) -> byTaskName.put(name, spec)));
		Map<ClusteredJobSpec, TriggerTask> replaced = new HashMap<>();
		registrar.setTriggerTasksList(withoutJobs(registrar.getTriggerTaskList(), byTaskName, replaced,
				(task) -> JobTimetable.grid(task.getTrigger())));
		registrar.setCronTasksList(withoutJobs(registrar.getCronTaskList(), byTaskName, replaced,
				(task) -> JobTimetable.grid(task.getTrigger())));
		registrar.setFixedRateTasksList(withoutJobs(registrar.getFixedRateTaskList(), byTaskName, replaced,
				(task) -> JobTimetable.fixedRate(task.getIntervalDuration(), initialDelay(task))));
		registrar.setFixedDelayTasksList(withoutJobs(registrar.getFixedDelayTaskList(), byTaskName, replaced,
				(task) -> JobTimetable.fixedDelay(task.getIntervalDuration(), initialDelay(task))));
		for (ClusteredJobSpec spec : specs) {
			TriggerTask task = replaced.get(spec);
			if (task == null) {
				throw new InvalidClusteredJobException(spec.description(),
						"no cron, fixed-rate or fixed-delay task of Spring's scheduling runs it",
						"Give its @Scheduled a cron, fixedRate or fixedDelay (a one-time task cannot be a job), "
								+ "and do not schedule its method in a SchedulingConfigurer of your own.");
			}
			registrar.addTriggerTask(task);
		}
	}

	private <T extends Task> List<T> withoutJobs(List<T> tasks, Map<String, ClusteredJobSpec> byTaskName,
			Map<ClusteredJobSpec, TriggerTask> replaced, Function<T, JobTimetable> timetable) {
		List<T> kept = new ArrayList<>();
		for (T task : tasks) {
			ClusteredJobSpec spec = byTaskName.get(task.toString());
			if (spec == null) {
				kept.add(task);
				continue;
			}
			ClusteredJobTask job = new ClusteredJobTask(spec.name(), task.getRunnable(), timetable.apply(task),
					catchUp(spec), this.lockTemplate, this.records, this.instance, this.lockWait, this.metrics);
			if (replaced.putIfAbsent(spec, new TriggerTask(job, job)) != null) {
				throw new InvalidClusteredJobException(spec.description(),
						"Spring's scheduling has more than one task for it",
						"Schedule the method once: one @Scheduled, and no SchedulingConfigurer task of its own.");
			}
		}
		return kept;
	}

	private boolean catchUp(ClusteredJobSpec spec) {
		MissedRuns missedRuns = (spec.missedRuns() != MissedRuns.DEFAULT) ? spec.missedRuns() : this.missedRuns;
		return missedRuns == MissedRuns.RUN_ONCE;
	}

	private static Duration initialDelay(IntervalTask task) {
		Duration initialDelay = task.getInitialDelayDuration();
		return initialDelay.isNegative() ? Duration.ZERO : initialDelay;
	}

}
