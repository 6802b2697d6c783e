package dev.zklock.autoconfigure;

import java.time.Duration;
import java.util.EnumSet;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.interceptor.DistributedLockAnnotationBeanPostProcessor;
import dev.zklock.zookeeper.HandOffPolicy;
import dev.zklock.zookeeper.LostLockPolicy;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.observation.autoconfigure.ObservationAutoConfiguration;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

class DistributedLockAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2999");

	@Test
	void providesTheRegistryTheTemplateAndThePostProcessorWithDefaults() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasSingleBean(ZooKeeperLockRegistry.class)
				.hasSingleBean(LockTemplate.class)
				.hasSingleBean(DistributedLockAnnotationBeanPostProcessor.class);
			assertThat(context.getBean(ZooKeeperLockRegistry.class).getRootPath()).isEqualTo("/locks");
			assertThat(context.getBean(LockTemplate.class).getDefaultWaitTime()).isEqualTo(Duration.ofSeconds(5));
		});
	}

	@Test
	void bindsRootPathAndWaitTime() {
		this.contextRunner
			.withPropertyValues("distributed-lock.root-path=/app/locks", "distributed-lock.wait-time=750ms")
			.run((context) -> {
				assertThat(context.getBean(ZooKeeperLockRegistry.class).getRootPath()).isEqualTo("/app/locks");
				assertThat(context.getBean(LockTemplate.class).getDefaultWaitTime()).isEqualTo(Duration.ofMillis(750));
			});
	}

	@Test
	void lostLockPolicyDefaultsToSuspendedAndRaise() {
		this.contextRunner.run((context) -> assertThat(context.getBean(ZooKeeperLockRegistry.class).getLostLockPolicy())
			.isEqualTo(LostLockPolicy.defaults())
			.satisfies((policy) -> assertThat(policy.trigger()).isEqualTo(LostLockPolicy.Trigger.SUSPENDED))
			.satisfies((policy) -> assertThat(policy.actions()).containsExactly(LostLockPolicy.Action.RAISE)));
	}

	@Test
	void bindsTheLostLockPolicy() {
		this.contextRunner
			.withPropertyValues("distributed-lock.lost-lock.trigger=lost",
					"distributed-lock.lost-lock.actions=interrupt,raise")
			.run((context) -> assertThat(context.getBean(ZooKeeperLockRegistry.class).getLostLockPolicy())
				.isEqualTo(new LostLockPolicy(LostLockPolicy.Trigger.LOST,
						EnumSet.of(LostLockPolicy.Action.INTERRUPT, LostLockPolicy.Action.RAISE))));
	}

	@Test
	void emptyLostLockActionsMeanNothingHappensBeyondIsValid() {
		this.contextRunner.withPropertyValues("distributed-lock.lost-lock.actions=")
			.run((context) -> assertThat(context.getBean(ZooKeeperLockRegistry.class).getLostLockPolicy().actions())
				.isEmpty());
	}

	@ParameterizedTest
	@ValueSource(strings = { "distributed-lock.lost-lock.trigger=expired", "distributed-lock.lost-lock.actions=kill" })
	void unknownLostLockPolicyFailsStartUpNamingTheProperty(String property) {
		this.contextRunner.withPropertyValues(property).run((context) -> {
			assertThat(context).hasFailed();
			String name = property.substring(0, property.indexOf('='));
			assertThat(context.getStartupFailure()).hasStackTraceContaining("Failed to bind properties under '" + name);
		});
	}

	@Test
	void handsLocksOffWithinTheDefaultBounds() {
		this.contextRunner.run((context) -> assertThat(context.getBean(ZooKeeperLockRegistry.class).getHandOffPolicy())
			.isEqualTo(HandOffPolicy.defaults())
			.isEqualTo(new HandOffPolicy(true, 64, Duration.ofMillis(50))));
	}

	@Test
	void bindsTheHandOffPolicy() {
		this.contextRunner
			.withPropertyValues("distributed-lock.hand-off.enabled=false", "distributed-lock.hand-off.max-count=8",
					"distributed-lock.hand-off.max-time=20ms")
			.run((context) -> assertThat(context.getBean(ZooKeeperLockRegistry.class).getHandOffPolicy())
				.isEqualTo(new HandOffPolicy(false, 8, Duration.ofMillis(20))));
	}

	@ParameterizedTest
	@ValueSource(strings = { "distributed-lock.hand-off.max-count=-1", "distributed-lock.hand-off.max-count=4096",
			"distributed-lock.hand-off.max-time=-5ms" })
	void handOffBoundOutOfRangeFailsStartUpNamingTheProperty(String property) {
		this.contextRunner.withPropertyValues(property).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining(property.substring(0, property.indexOf('=')));
		});
	}

	@Test
	void invalidRootPathFailsStartUpNamingTheProperty() {
		this.contextRunner.withPropertyValues("distributed-lock.root-path=locks").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("distributed-lock.root-path")
				.hasMessageContaining("locks");
		});
	}

	@Test
	void negativeWaitTimeFailsStartUpNamingTheProperty() {
		this.contextRunner.withPropertyValues("distributed-lock.wait-time=-1s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("distributed-lock.wait-time");
		});
	}

	@Test
	void backsOffFromAnApplicationTemplate() {
		this.contextRunner
			.withBean("myTemplate", LockTemplate.class,
					() -> new LockTemplate(
							new ZooKeeperLockRegistry(
									CuratorFrameworkFactory.newClient("127.0.0.1:2999", new RetryOneTime(10)), "/mine"),
							Duration.ofSeconds(1)))
			.run((context) -> {
				assertThat(context).hasSingleBean(LockTemplate.class);
				assertThat(context.getBean(LockTemplate.class).getDefaultWaitTime()).isEqualTo(Duration.ofSeconds(1));
			});
	}

	@Test
	void templateObservesNothingWithoutAnObservationRegistry() {
		this.contextRunner.run((context) -> assertThat(context.getBean(LockTemplate.class).getObservationRegistry())
			.isSameAs(ObservationRegistry.NOOP));
	}

	@Test
	void templateObservesThroughTheApplicationsObservationRegistry() {
		ObservationRegistry observationRegistry = ObservationRegistry.create();
		this.contextRunner.withBean(ObservationRegistry.class, () -> observationRegistry)
			.run((context) -> assertThat(context.getBean(LockTemplate.class).getObservationRegistry())
				.isSameAs(observationRegistry));
	}

	@Test
	void templateObservesThroughTheObservationRegistryOfSpringBoot() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
			.run((context) -> assertThat(context.getBean(LockTemplate.class).getObservationRegistry())
				.isSameAs(context.getBean(ObservationRegistry.class))
				.isNotSameAs(ObservationRegistry.NOOP));
	}

	@Test
	void templateObservesNothingWithoutMicrometerOnTheClassPath() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(ObservationAutoConfiguration.class))
			.withClassLoader(new FilteredClassLoader("io.micrometer"))
			.run((context) -> {
				assertThat(context).hasNotFailed().doesNotHaveBean(ObservationRegistry.class);
				assertThat(context.getBean(LockTemplate.class).getObservationRegistry())
					.isSameAs(ObservationRegistry.NOOP);
			});
	}

	@Test
	void applicationTemplateKeepsItsOwnObservationRegistry() {
		this.contextRunner.withBean(ObservationRegistry.class, ObservationRegistry::create)
			.withBean("myTemplate", LockTemplate.class,
					() -> new LockTemplate(
							new ZooKeeperLockRegistry(
									CuratorFrameworkFactory.newClient("127.0.0.1:2999", new RetryOneTime(10)), "/mine"),
							Duration.ofSeconds(1)))
			.run((context) -> assertThat(context.getBean(LockTemplate.class).getObservationRegistry())
				.isSameAs(ObservationRegistry.NOOP));
	}

	@Test
	void usesTheApplicationsCuratorClient() {
		new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
			.withBean("userClient", CuratorFramework.class,
					() -> CuratorFrameworkFactory.newClient("127.0.0.1:2999", new RetryOneTime(10)))
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(CuratorFramework.class)
				.hasSingleBean(ZooKeeperLockRegistry.class));
	}

	@Test
	void failsRatherThanLeavingAnnotatedMethodsUnlockedWithoutAClient() {
		new ApplicationContextRunner().withConfiguration(AutoConfigurations.of(DistributedLockAutoConfiguration.class))
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasMessageContaining(CuratorFramework.class.getName());
			});
	}

	@Test
	void doesNothingWithoutCurator() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(CuratorFramework.class))
			.run((context) -> assertThat(context).doesNotHaveBean(LockTemplate.class)
				.doesNotHaveBean(DistributedLockAnnotationBeanPostProcessor.class));
	}

}
