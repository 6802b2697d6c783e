package dev.zklock.interceptor;

import java.util.stream.Stream;

import dev.zklock.DistributedLock;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Wait times and minimum hold times that are malformed, negative, or too long for a
 * {@code Duration} fail start-up.
 */
class AnnotationDurationBadInputTests extends AbstractAnnotationBadInputTests {

	static Stream<Arguments> badAttributesFailStartUp() {
		return Stream.of(startUpFailure(MalformedWaitTime.class, "waitTime 'soon'"),
				startUpFailure(WaitTimeWithSpace.class, "waitTime '5 s'"),
				startUpFailure(NegativeWaitTime.class, "waitTime '-1s'", "must not be negative"),
				startUpFailure(NegativeIsoWaitTime.class, "waitTime 'PT-0.001S'", "must not be negative"),
				startUpFailure(OverflowingWaitTime.class, "waitTime '9223372036854775807d'"),
				startUpFailure(TooLongNumberWaitTime.class, "waitTime '99999999999999999999ms'"),
				startUpFailure(MalformedHoldAtLeast.class, "holdAtLeast 'later'"),
				startUpFailure(NegativeHoldAtLeast.class, "holdAtLeast '-1ms'", "must not be negative"),
				startUpFailure(OverflowingHoldAtLeast.class, "holdAtLeast '9223372036854775807d'"));
	}

	static class MalformedWaitTime {

		@DistributedLock(key = "'k'", waitTime = "soon")
		public void work() {
		}

	}

	static class WaitTimeWithSpace {

		@DistributedLock(key = "'k'", waitTime = "5 s")
		public void work() {
		}

	}

	static class NegativeWaitTime {

		@DistributedLock(key = "'k'", waitTime = "-1s")
		public void work() {
		}

	}

	static class NegativeIsoWaitTime {

		@DistributedLock(key = "'k'", waitTime = "PT-0.001S")
		public void work() {
		}

	}

	static class OverflowingWaitTime {

		@DistributedLock(key = "'k'", waitTime = "9223372036854775807d")
		public void work() {
		}

	}

	static class TooLongNumberWaitTime {

		@DistributedLock(key = "'k'", waitTime = "99999999999999999999ms")
		public void work() {
		}

	}

	static class MalformedHoldAtLeast {

		@DistributedLock(key = "'k'", holdAtLeast = "later")
		public void work() {
		}

	}

	static class NegativeHoldAtLeast {

		@DistributedLock(key = "'k'", holdAtLeast = "-1ms")
		public void work() {
		}

	}

	static class OverflowingHoldAtLeast {

		@DistributedLock(key = "'k'", holdAtLeast = "9223372036854775807d")
		public void work() {
		}

	}

}
