package dev.zklock.scheduling;

import java.lang.reflect.Method;
import java.time.Duration;

import dev.zklock.ClusteredJob;
import dev.zklock.autoconfigure.scheduling.ClusteredJobAutoConfiguration;
import dev.zklock.scheduling.ClusteredJobBadInputTests.BadJobs.NoSchedule;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import reactor.core.publisher.Mono;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.NestedExceptionUtils;
import org.springframework.scheduling.annotation.EnableScheduling;
import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.scheduling.annotation.SchedulingConfigurer;
import org.springframework.scheduling.config.ScheduledTaskRegistrar;
import org.springframework.scheduling.support.CronTrigger;
import org.springframework.scheduling.support.ScheduledMethodRunnable;
import org.springframework.util.ReflectionUtils;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Clustered jobs that cannot apply as written, and properties that cannot be used, fail
 * start-up with a message naming the method or the property; an application without
 * scheduling gets none of it.
 */
class ClusteredJobBadInputTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withConfiguration(AutoConfigurations.of(ClusteredJobAutoConfiguration.class))
		.withUserConfiguration(Scheduling.class);

	@Test
	void jobWithoutScheduledFailsStartUp() {
		assertFailure(NoSchedule.class, NoSchedule.class.getName() + ".tick()", "it has no @Scheduled");
	}

	@Test
	void jobWithTwoSchedulesFailsStartUp() {
		assertFailure(BadJobs.TwoSchedules.class, "TwoSchedules.tick()", "it has 2 @Scheduled");
	}

	@Test
	void blankNameFailsStartUp() {
		assertFailure(BadJobs.BlankName.class, "BlankName.tick()", "its name is blank");
	}

	@Test
	void nameThatNoNodeCanHaveFailsStartUp() {
		assertFailure(BadJobs.SlashedName.class, "SlashedName.tick()",
				"its name 'reports/nightly' is not letters, digits, '.', '_' and '-'");
	}

	@Test
	void unresolvableNameFailsStartUp() {
		assertFailure(BadJobs.UnresolvableName.class, "UnresolvableName.tick()",
				"its name '${jobs.nightly}' does not resolve");
	}

	@Test
	void methodWithParametersFailsStartUp() {
		assertFailure(BadJobs.WithParameters.class, "WithParameters.tick(String)", "it has parameters");
	}

	@Test
	void reactiveMethodFailsStartUp() {
		assertFailure(BadJobs.Reactive.class, "Reactive.tick()", "it returns Mono");
	}

	@Test
	void oneTimeTaskFailsStartUp() {
		assertFailure(BadJobs.OneTime.class, "OneTime.tick()", "no cron, fixed-rate or fixed-delay task");
	}

	@Test
	void methodThatAConfigurerSchedulesBesideItsScheduledFailsStartUp() {
		assertFailure(BadJobs.ConfiguredTwice.class, "ConfiguredTwice.tick()",
				"Spring's scheduling has more than one task for it");
	}

	@Test
	void disabledScheduleWithAConfigurersOneTimeTaskFailsStartUp() {
		assertFailure(BadJobs.ConfiguredOnce.class, "ConfiguredOnce.tick()", "no cron, fixed-rate or fixed-delay task");
	}

	@Test
	void failureAnalysisNamesTheMethodTheProblemAndTheFix() {
		this.contextRunner.withUserConfiguration(BadJobs.BlankName.class).run((context) -> {
			FailureAnalysis analysis = new InvalidClusteredJobFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getDescription()).contains("Method:  " + BadJobs.BlankName.class.getName() + ".tick()")
				.contains("Problem: its name is blank");
			assertThat(analysis.getAction()).contains("@ClusteredJob(name = \"nightly-summary\")");
		});
	}

	@Test
	void twoJobsWithOneNameFailStartUpNamingBoth() {
		this.contextRunner.withUserConfiguration(BadJobs.Nightly.class, BadJobs.OtherNightly.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidClusteredJobException.class)
				.hasMessageContaining("Nightly.tick()")
				.hasMessageContaining("OtherNightly.tick()")
				.hasMessageContaining("its name 'nightly' is the name of the job");
		});
	}

	@Test
	void defaultAsTheDefaultOfMissedRunsFailsStartUp() {
		this.contextRunner.withPropertyValues("distributed-lock.scheduling.missed-runs=default").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("distributed-lock.scheduling.missed-runs");
		});
	}

	@Test
	void recordsUnderTheLockRootFailStartUp() {
		this.contextRunner.withPropertyValues("distributed-lock.scheduling.root-path=/locks/jobs").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("distributed-lock.scheduling.root-path")
				.hasMessageContaining("distributed-lock.root-path (/locks)");
		});
	}

	@Test
	void invalidRootPathFailsStartUp() {
		this.contextRunner.withPropertyValues("distributed-lock.scheduling.root-path=jobs").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("distributed-lock.scheduling.root-path");
		});
	}

	@Test
	void negativeLockWaitFailsStartUp() {
		this.contextRunner.withPropertyValues("distributed-lock.scheduling.lock-wait=-1s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("distributed-lock.scheduling.lock-wait");
		});
	}

	@Test
	void applicationWithoutSchedulingGetsNoJobs() {
		LockApplications.connectedTo(zookeeper)
			.withConfiguration(AutoConfigurations.of(ClusteredJobAutoConfiguration.class))
			.withUserConfiguration(NoSchedule.class)
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(context).doesNotHaveBean(ClusteredJobAnnotationBeanPostProcessor.class)
					.doesNotHaveBean(JobRecords.class);
			});
	}

	private void assertFailure(Class<?> job, String method, String problem) {
		this.contextRunner.withUserConfiguration(job).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(NestedExceptionUtils.getMostSpecificCause(context.getStartupFailure()))
				.isInstanceOf(InvalidClusteredJobException.class)
				.hasMessageContaining("@ClusteredJob on ")
				.hasMessageContaining(method)
				.hasMessageContaining(problem);
		});
	}

	@Configuration(proxyBeanMethods = false)
	@EnableScheduling
	static class Scheduling {

	}

	static class BadJobs {

		static class NoSchedule {

			@ClusteredJob(name = "nightly")
			void tick() {
			}

		}

		static class TwoSchedules {

			@Scheduled(fixedRate = 1000)
			@Scheduled(cron = "0 0 2 * * *")
			@ClusteredJob(name = "nightly")
			void tick() {
			}

		}

		static class BlankName {

			@Scheduled(fixedRate = 1000)
			@ClusteredJob(name = " ")
			void tick() {
			}

		}

		static class SlashedName {

			@Scheduled(fixedRate = 1000)
			@ClusteredJob(name = "reports/nightly")
			void tick() {
			}

		}

		static class UnresolvableName {

			@Scheduled(fixedRate = 1000)
			@ClusteredJob(name = "${jobs.nightly}")
			void tick() {
			}

		}

		static class WithParameters {

			@Scheduled(fixedRate = 1000)
			@ClusteredJob(name = "nightly")
			void tick(String day) {
			}

		}

		static class Reactive {

			@Scheduled(fixedRate = 1000)
			@ClusteredJob(name = "nightly")
			Mono<Void> tick() {
				return Mono.empty();
			}

		}

		static class OneTime {

			@Scheduled(initialDelay = 1000)
			@ClusteredJob(name = "nightly")
			void tick() {
			}

		}

		/** Scheduled by its {@code @Scheduled} and by a configurer's trigger task. */
		static class ConfiguredTwice implements SchedulingConfigurer {

			@Scheduled(fixedRate = 1000)
			@ClusteredJob(name = "nightly")
			void tick() {
			}

			@Override
			public void configureTasks(ScheduledTaskRegistrar registrar) {
				registrar.addTriggerTask(new ScheduledMethodRunnable(this, tickOf(getClass())),
						new CronTrigger("0 0 2 * * *"));
			}

		}

		/** Scheduled by a configurer's one-time task alone. */
		static class ConfiguredOnce implements SchedulingConfigurer {

			@Scheduled(cron = Scheduled.CRON_DISABLED)
			@ClusteredJob(name = "nightly")
			void tick() {
			}

			@Override
			public void configureTasks(ScheduledTaskRegistrar registrar) {
				registrar.addOneTimeTask(new ScheduledMethodRunnable(this, tickOf(getClass())), Duration.ofSeconds(1));
			}

		}

		static Method tickOf(Class<?> job) {
			return ReflectionUtils.findMethod(job, "tick");
		}

		static class Nightly {

			@Scheduled(cron = "0 0 2 * * *")
			@ClusteredJob(name = "nightly")
			void tick() {
			}

		}

		static class OtherNightly {

			@Scheduled(cron = "0 0 3 * * *")
			@ClusteredJob(name = "nightly")
			void tick() {
			}

		}

	}

}
