package dev.zklock.interceptor;

import dev.zklock.DistributedLock;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Malformed {@link DistributedLock} annotations fail start-up with a message naming the
 * method, rather than failing on the first call or running the method unlocked.
 */
class DistributedLockAnnotationValidationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2999");

	@Test
	void unparsableKeyFailsStartUpNamingTheMethod() {
		this.contextRunner.withBean(BrokenKeyService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("'order:' + ")
				.hasMessageContaining("BrokenKeyService.work()")
				.hasMessageContaining("does not parse");
		});
	}

	@Test
	void keyNamingNoParameterFailsStartUpListingTheParameters() {
		this.contextRunner.withBean(MisspelledParameterService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("'#ordreId', which is not a parameter")
				.hasMessageContaining("MisspelledParameterService.work(String)")
				.hasMessageContaining("(parameters: orderId)");
		});
	}

	@Test
	void malformedWaitTimeFailsStartUpNamingTheMethod() {
		this.contextRunner.withBean(BrokenWaitService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("waitTime 'soon'")
				.hasMessageContaining("BrokenWaitService.work()");
		});
	}

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

	static class MisspelledParameterService {

		@DistributedLock(key = "'order:' + #ordreId")
		void work(String orderId) {
		}

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

	static class BrokenKeyService {

		@DistributedLock(key = "'order:' + ")
		void work() {
		}

	}

	static class BrokenWaitService {

		@DistributedLock(key = "'work'", waitTime = "soon")
		void work() {
		}

	}

}
