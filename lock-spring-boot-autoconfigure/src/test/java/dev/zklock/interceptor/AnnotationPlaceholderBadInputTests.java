package dev.zklock.interceptor;

import java.util.stream.Stream;

import dev.zklock.DistributedLock;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Placeholders in wait times, minimum hold times and names that do not resolve, or that
 * resolve to a bad duration, fail start-up.
 */
class AnnotationPlaceholderBadInputTests extends AbstractAnnotationBadInputTests {

	static Stream<Arguments> badAttributesFailStartUp() {
		return Stream.of(startUpFailure(UnresolvedWaitTime.class, "waitTime '${orders.missing-wait}'"),
				startUpFailure(PlaceholderToMalformedWaitTime.class, "waitTime '${orders.bad-duration}'"),
				startUpFailure(PlaceholderToNegativeWaitTime.class, "waitTime '${orders.negative-duration}'",
						"must not be negative"),
				startUpFailure(UnresolvedHoldAtLeast.class, "holdAtLeast '${orders.missing-hold}'"),
				startUpFailure(UnresolvedName.class, "name '${orders.missing-name}'"));
	}

	static class UnresolvedWaitTime {

		@DistributedLock(key = "'k'", waitTime = "${orders.missing-wait}")
		public void work() {
		}

	}

	static class PlaceholderToMalformedWaitTime {

		@DistributedLock(key = "'k'", waitTime = "${orders.bad-duration}")
		public void work() {
		}

	}

	static class PlaceholderToNegativeWaitTime {

		@DistributedLock(key = "'k'", waitTime = "${orders.negative-duration}")
		public void work() {
		}

	}

	static class UnresolvedHoldAtLeast {

		@DistributedLock(key = "'k'", holdAtLeast = "${orders.missing-hold}")
		public void work() {
		}

	}

	static class UnresolvedName {

		@DistributedLock(key = "'k'", name = "${orders.missing-name}")
		public void work() {
		}

	}

}
