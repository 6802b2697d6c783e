package dev.zklock.interceptor;

import java.util.stream.Stream;

import dev.zklock.DistributedLock;
import dev.zklock.OnLockFailure;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Failure responses that cannot work fail start-up: a fallback method or a failure
 * handler bean that does not exist, and skipping a method that returns a primitive.
 */
class AnnotationFailureResponseBadInputTests extends AbstractAnnotationBadInputTests {

	static Stream<Arguments> badAttributesFailStartUp() {
		return Stream.of(startUpFailure(MissingFallback.class, "fallback"),
				startUpFailure(MissingHandler.class, "nobody"), startUpFailure(SkippedPrimitive.class, "cannot skip"));
	}

	static class MissingFallback {

		@DistributedLock(key = "'k'", fallback = "nowhere")
		public void work() {
		}

	}

	static class MissingHandler {

		@DistributedLock(key = "'k'", failureHandler = "nobody")
		public void work() {
		}

	}

	static class SkippedPrimitive {

		@DistributedLock(key = "'k'", onFailure = OnLockFailure.SKIP)
		public int work() {
			return 1;
		}

	}

}
