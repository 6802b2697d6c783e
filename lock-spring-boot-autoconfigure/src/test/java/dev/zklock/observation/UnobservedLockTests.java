package dev.zklock.observation;

import dev.zklock.testsupport.LockApplications;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.micrometer.metrics.autoconfigure.CompositeMeterRegistryAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.MetricsAutoConfiguration;
import org.springframework.boot.micrometer.metrics.autoconfigure.export.simple.SimpleMetricsExportAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Locks work and nothing is measured when Spring Boot's property turns the observations
 * off or when there is no observation registry.
 */
class UnobservedLockTests extends AbstractLockObservationTests {

	@Test
	void springBootsPropertyTurnsTheObservationsOff() {
		run(this.contextRunner.withPropertyValues("management.observations.enable.distributed.lock=false"),
				UnobservedLockTests::locksButMeasuresNothing);
	}

	@Test
	void withoutAnObservationRegistryLocksWorkAndNothingIsMeasured() {
		run(LockApplications.connectedTo(zookeeper)
			.withConfiguration(AutoConfigurations.of(MetricsAutoConfiguration.class,
					SimpleMetricsExportAutoConfiguration.class, CompositeMeterRegistryAutoConfiguration.class))
			.withUserConfiguration(OrdersConfiguration.class), UnobservedLockTests::locksButMeasuresNothing);
	}

	private static void locksButMeasuresNothing(Locks locks) {
		assertThat(locks.orders().nextNumber("44")).isEqualTo("44");
		assertThat(locks.meters().find("distributed.lock.acquisition").meters()).isEmpty();
	}

}
