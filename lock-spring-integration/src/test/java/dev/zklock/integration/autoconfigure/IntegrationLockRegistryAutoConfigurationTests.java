package dev.zklock.integration.autoconfigure;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.integration.ZooKeeperIntegrationLockRegistry;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfiguration;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.annotation.ImportCandidates;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.integration.support.locks.DefaultLockRegistry;
import org.springframework.integration.support.locks.LockRegistry;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * When the Spring Integration lock registry is auto-configured, and when it backs off.
 */
class IntegrationLockRegistryAutoConfigurationTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withConfiguration(AutoConfigurations.of(IntegrationLockRegistryAutoConfiguration.class));

	@Test
	void isAnAutoConfigurationOfTheModule() {
		assertThat(ImportCandidates.load(AutoConfiguration.class, getClass().getClassLoader()))
			.contains(IntegrationLockRegistryAutoConfiguration.class.getName());
	}

	@Test
	void providesALockRegistryWhoseLocksAreThoseOfTheZooKeeperLockRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(IntegrationLockRegistryAutoConfiguration.class,
					DistributedLockAutoConfiguration.class, ZooKeeperAutoConfiguration.class))
			.withPropertyValues("distributed-lock.zookeeper.connect-string=" + zookeeper.connectString())
			.run((context) -> {
				assertThat(context).hasSingleBean(LockRegistry.class)
					.getBean(LockRegistry.class)
					.isInstanceOf(ZooKeeperIntegrationLockRegistry.class);
				ZooKeeperIntegrationLockRegistry registry = context.getBean(ZooKeeperIntegrationLockRegistry.class);
				registry.obtain("shared").lock();
				context.getBean(ZooKeeperLockRegistry.class).obtain("shared").unlock();
				assertThat(context.getBean(ZooKeeperLockRegistry.class).keysInUse()).isZero();
			});
	}

	@Test
	void observesExecuteLockedThroughTheApplicationsObservationRegistry() {
		List<String> observed = new CopyOnWriteArrayList<>();
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new ObservationHandler<>() {

			@Override
			public boolean supportsContext(Observation.Context context) {
				return true;
			}

			@Override
			public void onStop(Observation.Context context) {
				observed.add(context.getName() + " " + context.getLowCardinalityKeyValue("name").getValue());
			}

		});
		this.contextRunner.withBean(ObservationRegistry.class, () -> observations).run((context) -> {
			context.getBean(ZooKeeperIntegrationLockRegistry.class).executeLocked("observed", () -> "done");
			assertThat(observed).containsExactly("distributed.lock.acquisition LockRegistry.executeLocked",
					"distributed.lock.hold LockRegistry.executeLocked");
		});
	}

	@Test
	void backsOffForALockRegistryOfTheApplication() {
		this.contextRunner.withBean(LockRegistry.class, DefaultLockRegistry::new)
			.run((context) -> assertThat(context).hasSingleBean(LockRegistry.class)
				.doesNotHaveBean(ZooKeeperIntegrationLockRegistry.class));
	}

	@Test
	void backsOffWithoutSpringIntegration() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(LockRegistry.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ZooKeeperIntegrationLockRegistry.class));
	}

	@Test
	void backsOffWithoutAZooKeeperLockRegistry() {
		new ApplicationContextRunner()
			.withConfiguration(AutoConfigurations.of(IntegrationLockRegistryAutoConfiguration.class))
			.run((context) -> assertThat(context).doesNotHaveBean(ZooKeeperIntegrationLockRegistry.class));
	}

}
