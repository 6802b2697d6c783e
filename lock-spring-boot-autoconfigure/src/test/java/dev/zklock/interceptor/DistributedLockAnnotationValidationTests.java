package dev.zklock.interceptor;

import dev.zklock.DistributedLock;
import dev.zklock.LockType;
import dev.zklock.OnLockFailure;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import org.junit.jupiter.api.Test;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
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

	@Test
	void missingFallbackFailsStartUpNamingTheMethodAndTheExpectedSignature() {
		this.contextRunner.withBean(MissingFallbackService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("MissingFallbackService.work(String,int)")
				.hasMessageContaining("names fallback 'backup'")
				.hasMessageContaining("backup(String, int) or backup(String, int, LockException)");
		});
	}

	@Test
	void fallbackWithOtherParametersFailsStartUp() {
		this.contextRunner.withBean(WrongParametersFallbackService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("WrongParametersFallbackService.work(String)")
				.hasMessageContaining("has no method backup(String)");
		});
	}

	@Test
	void fallbackReturningAnotherTypeFailsStartUp() {
		this.contextRunner.withBean(WrongReturnFallbackService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("WrongReturnFallbackService.work()")
				.hasMessageContaining("which returns java.lang.Integer where java.lang.String is expected");
		});
	}

	@Test
	void skippingAMethodThatReturnsAPrimitiveFailsStartUp() {
		this.contextRunner.withBean(PrimitiveSkipService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("PrimitiveSkipService.count()")
				.hasMessageContaining("cannot skip on failure: it returns a long");
		});
	}

	@Test
	void missingFailureHandlerBeanFailsStartUp() {
		this.contextRunner.withBean(MissingHandlerService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("MissingHandlerService.work()")
				.hasMessageContaining("names failureHandler 'nobody', but there is no such bean");
		});
	}

	@Test
	void failureHandlerOfTheWrongTypeFailsStartUp() {
		this.contextRunner.withBean("notAHandler", String.class, () -> "text")
			.withBean(WrongHandlerTypeService.class)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasMessageContaining("WrongHandlerTypeService.work()")
					.hasMessageContaining(
							"names failureHandler 'notAHandler', which is not a dev.zklock.LockFailureHandler");
			});
	}

	@Test
	void choosingTwoFailureResponsesFailsStartUp() {
		this.contextRunner.withBean(TwoResponsesService.class).run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("TwoResponsesService.work()")
				.hasMessageContaining("chooses onFailure = SKIP and fallback = \"backup\"; choose one");
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

	static class MissingFallbackService {

		@DistributedLock(key = "'k'", fallback = "backup")
		String work(String a, int b) {
			return "";
		}

	}

	static class WrongParametersFallbackService {

		@DistributedLock(key = "'k'", fallback = "backup")
		String work(String a) {
			return "";
		}

		String backup(Object a) {
			return "";
		}

	}

	static class WrongReturnFallbackService {

		@DistributedLock(key = "'k'", fallback = "backup")
		String work() {
			return "";
		}

		Integer backup() {
			return 0;
		}

	}

	static class PrimitiveSkipService {

		@DistributedLock(key = "'k'", onFailure = OnLockFailure.SKIP)
		long count() {
			return 0;
		}

	}

	static class MissingHandlerService {

		@DistributedLock(key = "'k'", failureHandler = "nobody")
		void work() {
		}

	}

	static class WrongHandlerTypeService {

		@DistributedLock(key = "'k'", failureHandler = "notAHandler")
		void work() {
		}

	}

	static class TwoResponsesService {

		@DistributedLock(key = "'k'", onFailure = OnLockFailure.SKIP, fallback = "backup")
		void work() {
		}

		void backup() {
		}

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
