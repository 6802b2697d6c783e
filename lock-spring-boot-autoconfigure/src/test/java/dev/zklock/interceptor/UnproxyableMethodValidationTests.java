package dev.zklock.interceptor;

import dev.zklock.DistributedLock;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A final or private annotated method, which a proxy cannot intercept, fails start-up
 * rather than running unlocked.
 */
class UnproxyableMethodValidationTests extends AbstractDistributedLockAnnotationValidationTests {

	@Test
	void annotatedFinalMethodFailsStartUpRatherThanRunningUnlocked() {
		this.contextRunner.withBean(FinalMethodService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("FinalMethodService.work()")
				.hasMessageContaining("would run without its lock");
		});
	}

	@Test
	void annotatedPrivateMethodFailsStartUpRatherThanRunningUnlocked() {
		this.contextRunner.withBean(PrivateMethodService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("PrivateMethodService.work()");
		});
	}

	static class FinalMethodService {

		@DistributedLock(key = "'work'")
		final void work() {
		}

	}

	static class PrivateMethodService {

		@DistributedLock(key = "'work'")
		private void work() {
		}

		@DistributedLock(key = "'other'")
		void other() {
			work();
		}

	}

}
