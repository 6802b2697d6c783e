package dev.zklock.autoconfigure.zookeeper;

import java.time.Duration;
import java.util.HashSet;
import java.util.Set;

import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.aot.test.generate.TestGenerationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContextInitializer;
import org.springframework.context.aot.ApplicationContextAotGenerator;
import org.springframework.context.support.GenericApplicationContext;
import org.springframework.core.test.tools.CompileWithForkedClassLoader;
import org.springframework.core.test.tools.TestCompiler;
import org.springframework.javapoet.ClassName;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * An application of several lock sessions processed ahead of time, compiled, and started
 * from the generated code alone (as an application started with
 * {@code -Dspring.aot.enabled=true} is) against a real ZooKeeper server: its registry
 * locks through every session, and the sessions' clients close with the context.
 */
@CompileWithForkedClassLoader
class LockSessionClientsAheadOfTimeTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withPropertyValues("distributed-lock.zookeeper.sessions=3");

	@Test
	void theRegistryLocksThroughEverySessionInTheContextProcessedAheadOfTime() {
		this.contextRunner.prepare((prepared) -> {
			GenericApplicationContext source = (GenericApplicationContext) prepared.getSourceApplicationContext();
			TestGenerationContext generation = new TestGenerationContext(LockSessionClientsAheadOfTimeTests.class);
			ClassName initializerName = new ApplicationContextAotGenerator().processAheadOfTime(source, generation);
			generation.writeGeneratedContent();
			TestCompiler.forSystem().with(generation).compile((compiled) -> {
				LockSessionClients furtherSessions;
				try (GenericApplicationContext context = new GenericApplicationContext()) {
					context.setEnvironment(source.getEnvironment());
					@SuppressWarnings("unchecked")
					ApplicationContextInitializer<GenericApplicationContext> initializer = compiled
						.getInstance(ApplicationContextInitializer.class, initializerName.toString());
					initializer.initialize(context);
					context.refresh();
					furtherSessions = context.getBean(LockSessionClients.class);
					assertThat(furtherSessions.clients()).hasSize(2);
					ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
					Set<String> sessions = new HashSet<>();
					for (int i = 0; i < 30; i++) {
						String key = "order:" + i;
						AcquiredLock lock = registry.acquire(key, Duration.ofSeconds(10));
						sessions.add(registry.queueOf(key).get(0).sessionId());
						lock.release();
					}
					assertThat(sessions).hasSize(3);
				}
				assertThat(furtherSessions.clients()).extracting(CuratorFramework::getState)
					.containsOnly(CuratorFrameworkState.STOPPED);
			});
		});
	}

}
