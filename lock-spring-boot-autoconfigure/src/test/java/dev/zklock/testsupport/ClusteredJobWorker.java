package dev.zklock.testsupport;

import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;

import dev.zklock.ClusteredJob;
import dev.zklock.LockHandle;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.scheduling.ClusteredJobAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.scheduling.JobRecords;
import dev.zklock.testsupport.process.JavaCommand;

import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.Banner;
import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.ImportAutoConfiguration;
import org.springframework.boot.builder.SpringApplicationBuilder;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.concurrent.ThreadPoolTaskScheduler;

/**
 * An instance of an application with one clustered job, in a JVM of its own: every
 * {@code worker.period-millis} it runs the job {@code ticks} for
 * {@code worker.run-millis}, recording the start and the end of each run in a history
 * file shared by all instances ({@link TickHistory}), on a scheduler whose clock is
 * {@code worker.clock-offset-millis} off the machine's. It runs until it is stopped or
 * killed.
 */
public final class ClusteredJobWorker {

	private ClusteredJobWorker() {
	}

	/**
	 * The command that starts an instance.
	 * @param connectString the ZooKeeper servers
	 * @param history the history file
	 * @param instance the instance's name
	 * @param clockOffset how far its scheduler's clock is off the machine's
	 * @param period the job's fixed rate
	 * @param runTime how long each run takes
	 * @return the command
	 */
	public static JavaCommand command(String connectString, Path history, String instance, Duration clockOffset,
			Duration period, Duration runTime) {
		return JavaCommand.mainClass(ClusteredJobWorker.class.getName())
			.jvmOptions("-Xmx128m", "-XX:TieredStopAtLevel=1")
			.arguments("--distributed-lock.zookeeper.connect-string=" + connectString,
					"--distributed-lock.zookeeper.session-timeout=" + ZooKeeperTestServer.SESSION_TIMEOUT_MILLIS + "ms",
					"--distributed-lock.startup.connection-wait=60s", "--worker.history=" + history,
					"--worker.instance=" + instance, "--worker.clock-offset-millis=" + clockOffset.toMillis(),
					"--worker.period-millis=" + period.toMillis(), "--worker.run-millis=" + runTime.toMillis());
	}

	public static void main(String[] args) {
		new SpringApplicationBuilder(WorkerConfiguration.class).web(WebApplicationType.NONE)
			.bannerMode(Banner.Mode.OFF)
			.logStartupInfo(false)
			.run(args);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	@ImportAutoConfiguration({ ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class,
			ClusteredJobAutoConfiguration.class })
	static class WorkerConfiguration {

		@Bean
		ThreadPoolTaskScheduler taskScheduler(@Value("${worker.clock-offset-millis}") long offset) {
			ThreadPoolTaskScheduler scheduler = new ThreadPoolTaskScheduler();
			scheduler.setClock(Clock.offset(Clock.systemUTC(), Duration.ofMillis(offset)));
			return scheduler;
		}

		@Bean
		Ticks ticks(JobRecords records, @Value("${worker.history}") Path history,
				@Value("${worker.instance}") String instance, @Value("${worker.run-millis}") long runMillis) {
			return new Ticks(records, history, instance, runMillis);
		}

	}

	static class Ticks {

		private final JobRecords records;

		private final Path history;

		private final String instance;

		private final long runMillis;

		Ticks(JobRecords records, Path history, String instance, long runMillis) {
			this.records = records;
			this.history = history;
			this.instance = instance;
			this.runMillis = runMillis;
		}

		@Scheduled(fixedRateString = "${worker.period-millis}")
		@ClusteredJob(name = "ticks")
		void tick() throws InterruptedException {
			long token = LockHandle.current().fencingToken();
			var scheduledTime = this.records.read("ticks").scheduledTime();
			TickHistory.started(this.history, scheduledTime, this.instance, token);
			Thread.sleep(this.runMillis);
			TickHistory.ended(this.history, scheduledTime, this.instance, token);
		}

	}

}
