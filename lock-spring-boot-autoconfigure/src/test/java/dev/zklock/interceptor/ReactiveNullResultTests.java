package dev.zklock.interceptor;

import java.time.Duration;

import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * A reactive method that returns no result at all gets an error that names it, and leaves
 * no lock held.
 */
class ReactiveNullResultTests extends AbstractReactiveLockTests {

	@Test
	void monoMethodReturningNullGetsAClearErrorNotANullPointerException() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			assertThatIllegalStateException().isThrownBy(() -> reports.nullMono().block(Duration.ofSeconds(10)))
				.withMessageContaining("nullMono()")
				.withMessageContaining("returned null");
			assertThat(registry.keysInUse()).isZero();
		});
	}

	@Test
	void fluxMethodReturningNullGetsAClearErrorNotANullPointerException() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			assertThatIllegalStateException().isThrownBy(() -> reports.nullFlux().blockLast(Duration.ofSeconds(10)))
				.withMessageContaining("nullFlux()")
				.withMessageContaining("returned null");
			assertThat(registry.keysInUse()).isZero();
		});
	}

}
