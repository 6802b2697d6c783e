package dev.zklock;

import java.time.Duration;

import dev.zklock.JobsAndLeadershipApplication.Feed;
import dev.zklock.JobsAndLeadershipApplication.Summary;
import dev.zklock.autoconfigure.leadership.LeadershipAutoConfiguration;
import dev.zklock.autoconfigure.scheduling.ClusteredJobAutoConfiguration;
import dev.zklock.leadership.LeadershipInitiator;
import dev.zklock.scheduling.JobRecord;
import dev.zklock.scheduling.JobRecords;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.test.tools.CompileWithForkedClassLoader;
import org.springframework.core.test.tools.TestCompiler;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * An application with a {@link ClusteredJob} and a {@code @LeaderOnly} bean, processed
 * ahead of time, compiled, and started from the generated code alone (as an application
 * started with {@code -Dspring.aot.enabled=true} is) against a real ZooKeeper server: the
 * job runs and records its runs, and the instance leads and starts its leader-only bean.
 * The sample's {@code AotInstancesIT} runs a job in a packaged AOT-processed application.
 */
@CompileWithForkedClassLoader
class ClusteredJobAndLeadershipAheadOfTimeTests {

	private static final Duration AWAIT = Duration.ofSeconds(30);

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withConfiguration(
				AutoConfigurations.of(ClusteredJobAutoConfiguration.class, LeadershipAutoConfiguration.class))
		.withUserConfiguration(JobsAndLeadershipApplication.class)
		.withPropertyValues("distributed-lock.leadership.name=aot-leader");

	@Test
	void jobRunsAndLeaderOnlyBeanStartsInTheContextProcessedAheadOfTime() {
		this.contextRunner.prepare((prepared) -> {
			GenericApplicationContext source = (GenericApplicationContext) prepared.getSourceApplicationContext();
			TestGenerationContext generation = new TestGenerationContext(JobsAndLeadershipApplication.class);
			ClassName initializerName = new ApplicationContextAotGenerator().processAheadOfTime(source, generation);
			generation.writeGeneratedContent();
			TestCompiler.forSystem().with(generation).compile((compiled) -> {
				try (GenericApplicationContext context = new GenericApplicationContext()) {
					context.setEnvironment(source.getEnvironment());
					@SuppressWarnings("unchecked")
					ApplicationContextInitializer<GenericApplicationContext> initializer = compiled
						.getInstance(ApplicationContextInitializer.class, initializerName.toString());
					initializer.initialize(context);
					context.refresh();
					await().atMost(AWAIT).until(() -> context.getBean(Summary.class).runs() >= 2);
					JobRecord lastRun = context.getBean(JobRecords.class).read("summary");
					assertThat(lastRun).isNotNull();
					assertThat(lastRun.fencingToken()).isPositive();
					await().atMost(AWAIT).until(() -> context.getBean(LeadershipInitiator.class).isLeader());
					await().atMost(AWAIT).until(() -> context.getBean(Feed.class).isRunning());
				}
			});
		});
	}

}
