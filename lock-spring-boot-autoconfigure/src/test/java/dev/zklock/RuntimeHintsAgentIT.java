package dev.zklock;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import java.nio.file.Path;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

import dev.zklock.JobsAndLeadershipApplication.Feed;
import dev.zklock.JobsAndLeadershipApplication.Summary;
import dev.zklock.actuate.ClusteredJobsEndpoint;
import dev.zklock.actuate.LocksEndpoint;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.actuate.ClusteredJobsEndpointAutoConfiguration;
import dev.zklock.autoconfigure.actuate.LocksEndpointAutoConfiguration;
import dev.zklock.autoconfigure.leadership.LeadershipAutoConfiguration;
import dev.zklock.autoconfigure.scheduling.ClusteredJobAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.EmbeddedZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.health.ZooKeeperHealthContributorAutoConfiguration;
import dev.zklock.health.ZooKeeperHealthIndicator;
import dev.zklock.leadership.LeadershipInitiator;
import dev.zklock.testsupport.SecureZooKeeperServer;
import dev.zklock.testsupport.TestCertificates;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.test.agent.EnabledIfRuntimeHintsAgent;
import org.springframework.aot.test.agent.RuntimeHintsInvocations;
import org.springframework.aot.test.agent.RuntimeHintsRecorder;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Real locking under Spring's {@code RuntimeHintsAgent}, which records the reflective
 * calls, resource look-ups and proxies made from ZooKeeper, Curator, zklock and SpEL (the
 * packages that the failsafe configuration instruments). Each call must be covered by the
 * hints that a native image would get: those of every {@code aot.factories} and those
 * that Spring's AOT processing registers for the beans.
 */
@EnabledIfRuntimeHintsAgent
class RuntimeHintsAgentIT {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class,
						ZooKeeperHealthContributorAutoConfiguration.class, LocksEndpointAutoConfiguration.class))
		.withUserConfiguration(ReportsConfiguration.class)
		.withPropertyValues("management.endpoints.web.exposure.include=locks");

	@Test
	void lockingOnTheEmbeddedServer(@TempDir Path data) {
		RuntimeHintsInvocations invocations = RuntimeHintsRecorder.record(() -> this.contextRunner
			.withConfiguration(AutoConfigurations.of(EmbeddedZooKeeperAutoConfiguration.class))
			.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
					"distributed-lock.zookeeper.embedded.port=0",
					"distributed-lock.zookeeper.embedded.data-directory=" + data,
					"distributed-lock.zookeeper.authentication.username=reports",
					"distributed-lock.zookeeper.authentication.password=secret")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				lockEveryWay(context.getBean(Reports.class), context.getBean(ZooKeeperLockRegistry.class));
				String run = context.getBean(LockTemplate.class)
					.execute("template", Duration.ofSeconds(10), (lock) -> "run");
				assertThat(run).isEqualTo("run");
				assertThat(context.getBean(ZooKeeperHealthIndicator.class).health(true).getStatus().getCode())
					.isEqualTo("UP");
				assertThat(context.getBean(LocksEndpoint.class).locks().held()).isEmpty();
			}));
		assertThat(invocations).withSpringFactoriesRegistrars("META-INF/spring/aot.factories").match(beanHints());
	}

	@Test
	void clusteredJobsAndLeadershipOnTheEmbeddedServer(@TempDir Path data) {
		RuntimeHintsInvocations invocations = RuntimeHintsRecorder.record(() -> this.contextRunner
			.withConfiguration(
					AutoConfigurations.of(EmbeddedZooKeeperAutoConfiguration.class, ClusteredJobAutoConfiguration.class,
							ClusteredJobsEndpointAutoConfiguration.class, LeadershipAutoConfiguration.class))
			.withUserConfiguration(JobsAndLeadershipApplication.class)
			.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
					"distributed-lock.zookeeper.embedded.port=0",
					"distributed-lock.zookeeper.embedded.data-directory=" + data,
					"distributed-lock.zookeeper.authentication.username=reports",
					"distributed-lock.zookeeper.authentication.password=secret",
					"distributed-lock.startup.connection-wait=60s", "distributed-lock.leadership.name=reports-leader",
					"management.endpoints.web.exposure.include=locks,clusteredjobs")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				await().atMost(Duration.ofSeconds(30)).until(() -> context.getBean(Summary.class).runs() >= 2);
				await().atMost(Duration.ofSeconds(30)).until(() -> context.getBean(Feed.class).isRunning());
				assertThat(context.getBean(ClusteredJobsEndpoint.class).jobs().jobs()).singleElement()
					.satisfies((job) -> assertThat(job.lastRun()).isNotNull());
				context.getBean(LeadershipInitiator.class).yieldLeadership();
				await().atMost(Duration.ofSeconds(30)).until(() -> context.getBean(Feed.class).starts() >= 2);
			}));
		assertThat(invocations).withSpringFactoriesRegistrars("META-INF/spring/aot.factories")
			.match(beanHints(Summary.class));
	}

	@Test
	void lockingOverTls(@TempDir Path directory) throws Exception {
		TestCertificates certificates = TestCertificates.create(directory);
		try (SecureZooKeeperServer server = SecureZooKeeperServer.start(certificates, directory)) {
			RuntimeHintsInvocations invocations = RuntimeHintsRecorder.record(() -> this.contextRunner
				.withPropertyValues("distributed-lock.zookeeper.connect-string=" + server.connectString(),
						"distributed-lock.zookeeper.ssl.enabled=true",
						"distributed-lock.zookeeper.ssl.key-store-location=" + certificates.clientKeyStore(),
						"distributed-lock.zookeeper.ssl.key-store-password=" + TestCertificates.KEY_STORE_PASSWORD,
						"distributed-lock.zookeeper.ssl.trust-store-location=" + certificates.trustStore(),
						"distributed-lock.zookeeper.ssl.trust-store-password=" + TestCertificates.TRUST_STORE_PASSWORD)
				.run((context) -> {
					assertThat(context).hasNotFailed();
					lockEveryWay(context.getBean(Reports.class), context.getBean(ZooKeeperLockRegistry.class));
				}));
			assertThat(invocations).withSpringFactoriesRegistrars("META-INF/spring/aot.factories").match(beanHints());
		}
	}

	private static void lockEveryWay(Reports reports, ZooKeeperLockRegistry registry) {
		assertThat(reports.nightly("2026-11-22")).isEqualTo("nightly 2026-11-22");
		assertThat(reports.monthly()).isEqualTo("monthly");
		AcquiredLock held = registry.acquire("weekly", Duration.ZERO);
		try {
			assertThat(CompletableFuture.supplyAsync(() -> reports.weekly("47")).join()).isEqualTo("busy 47");
		}
		finally {
			held.release();
		}
	}

	/**
	 * The hints that Spring's AOT processing registers for the beans of the application.
	 * @param others the classes of its beans besides the reports
	 * @return the hints
	 */
	private static RuntimeHints beanHints(Class<?>... others) {
		RuntimeHints hints = new RuntimeHints();
		new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, Reports.class);
		new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(hints, others);
		return hints;
	}

	/**
	 * A composed annotation. Public, so that the JDK defines the proxies of its instances
	 * in a package of its own, which the agent leaves alone, and not in this one.
	 */
	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.METHOD)
	@DistributedLock(key = "'monthly'")
	public @interface MonthlyLock {

	}

	static class ReportsConfiguration {

		@Bean
		Reports reports() {
			return new Reports();
		}

	}

	static class Reports {

		@DistributedLock(key = "#root.methodName + '/' + #root.method.name + '/' + #root.args.length + '/'"
				+ " + (#root.target != null) + '/' + #day")
		public String nightly(String day) {
			return "nightly " + day;
		}

		@MonthlyLock
		public String monthly() {
			return "monthly";
		}

		@DistributedLock(key = "'weekly'", waitTime = "0", fallback = "busy")
		public String weekly(String week) {
			return "weekly " + week;
		}

		String busy(String week) {
			return "busy " + week;
		}

	}

}
