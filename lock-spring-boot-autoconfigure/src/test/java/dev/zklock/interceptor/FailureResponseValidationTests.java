package dev.zklock.interceptor;

import dev.zklock.DistributedLock;
import dev.zklock.OnLockFailure;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * A failure response that cannot work fails start-up naming the method and what is wrong:
 * a fallback that is missing or does not fit, a failure handler bean that is missing or
 * of another type, skipping a method that returns a primitive, or two responses at once.
 */
class FailureResponseValidationTests extends AbstractDistributedLockAnnotationValidationTests {

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

}
