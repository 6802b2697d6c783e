package dev.zklock.interceptor;

import dev.zklock.DistributedLock;
import dev.zklock.LockType;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A malformed key, wait time, name or permits attribute fails start-up with a message
 * naming the method, rather than failing on the first call or running the method
 * unlocked.
 */
class LockAttributeValidationTests extends AbstractDistributedLockAnnotationValidationTests {

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
	void unresolvableNameFailsStartUpNamingTheMethod() {
		this.contextRunner.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class))
			.withBean(UnresolvableNameService.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasMessageContaining("name '${orders.lock-name}'")
					.hasMessageContaining("UnresolvableNameService.work()")
					.hasMessageContaining("does not resolve");
			});
	}

	@Test
	void permitsOutsideASemaphoreFailStartUp() {
		this.contextRunner.withBean(PermitsWithoutSemaphoreService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("PermitsWithoutSemaphoreService.work()")
				.hasMessageContaining("asks for 3 permits of a READ lock; permits apply to type = SEMAPHORE only");
		});
	}

	@Test
	void semaphoreWithoutPermitsFailsStartUp() {
		this.contextRunner.withBean(NoPermitsService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("NoPermitsService.work()")
				.hasMessageContaining("asks for 0 permits; a semaphore needs at least 1");
		});
	}

	static class UnresolvableNameService {

		@DistributedLock(key = "'k'", name = "${orders.lock-name}")
		void work() {
		}

	}

	static class PermitsWithoutSemaphoreService {

		@DistributedLock(key = "'k'", type = LockType.READ, permits = 3)
		void work() {
		}

	}

	static class NoPermitsService {

		@DistributedLock(key = "'k'", type = LockType.SEMAPHORE, permits = 0)
		void work() {
		}

	}

	static class MisspelledParameterService {

		@DistributedLock(key = "'order:' + #ordreId")
		void work(String orderId) {
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
