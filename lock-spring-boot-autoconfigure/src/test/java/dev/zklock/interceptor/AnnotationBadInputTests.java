package dev.zklock.interceptor;

import java.util.stream.Stream;

import dev.zklock.DistributedLock;
import dev.zklock.LockType;
import dev.zklock.OnLockFailure;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.autoconfigure.context.PropertyPlaceholderAutoConfiguration;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Bad {@link DistributedLock} attributes fail start-up with an
 * {@link IllegalStateException} naming the attribute and the method, rather than failing
 * at the first call or running the method unlocked.
 *
 * @see KeyExpressionBadInputTests
 */
class AnnotationBadInputTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner startUp = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(PropertyPlaceholderAutoConfiguration.class,
				ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=" + zookeeper.connectString(),
				"orders.bad-duration=soon", "orders.negative-duration=-2s");

	static Stream<Arguments> badAttributesFailStartUp() {
		return Stream.of(startUpFailure(EmptyKey.class, "empty key expression"),
				startUpFailure(BlankKey.class, "empty key expression"),
				startUpFailure(UnparsableKey.class, "key expression ''order:' +'", "does not parse"),
				startUpFailure(UnclosedKey.class, "key expression '{#p0'", "does not parse"),
				startUpFailure(MisspelledParameter.class, "'#ordreId', which is not a parameter"),
				startUpFailure(PositionBeyondParameters.class, "'#p1', which is not a parameter"),
				startUpFailure(MalformedWaitTime.class, "waitTime 'soon'"),
				startUpFailure(WaitTimeWithSpace.class, "waitTime '5 s'"),
				startUpFailure(NegativeWaitTime.class, "waitTime '-1s'", "must not be negative"),
				startUpFailure(NegativeIsoWaitTime.class, "waitTime 'PT-0.001S'", "must not be negative"),
				startUpFailure(OverflowingWaitTime.class, "waitTime '9223372036854775807d'"),
				startUpFailure(TooLongNumberWaitTime.class, "waitTime '99999999999999999999ms'"),
				startUpFailure(UnresolvedWaitTime.class, "waitTime '${orders.missing-wait}'"),
				startUpFailure(PlaceholderToMalformedWaitTime.class, "waitTime '${orders.bad-duration}'"),
				startUpFailure(PlaceholderToNegativeWaitTime.class, "waitTime '${orders.negative-duration}'",
						"must not be negative"),
				startUpFailure(MalformedHoldAtLeast.class, "holdAtLeast 'later'"),
				startUpFailure(NegativeHoldAtLeast.class, "holdAtLeast '-1ms'", "must not be negative"),
				startUpFailure(OverflowingHoldAtLeast.class, "holdAtLeast '9223372036854775807d'"),
				startUpFailure(UnresolvedHoldAtLeast.class, "holdAtLeast '${orders.missing-hold}'"),
				startUpFailure(ZeroPermits.class, "0 permits"), startUpFailure(NegativePermits.class, "-1 permits"),
				startUpFailure(MostNegativePermits.class, Integer.MIN_VALUE + " permits"),
				startUpFailure(PermitsOfAnExclusiveLock.class, "2 permits of a EXCLUSIVE lock"),
				startUpFailure(PermitsOfAReadLock.class, Integer.MAX_VALUE + " permits of a READ lock"),
				startUpFailure(PermitsOfAWriteLock.class, "3 permits of a WRITE lock"),
				startUpFailure(MissingFallback.class, "fallback"), startUpFailure(MissingHandler.class, "nobody"),
				startUpFailure(UnresolvedName.class, "name '${orders.missing-name}'"),
				startUpFailure(SkippedPrimitive.class, "cannot skip"));
	}

	@ParameterizedTest
	@MethodSource
	void badAttributesFailStartUp(Class<?> service, String[] culprits) {
		this.startUp.withBean(service).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (failure != null && !(failure instanceof IllegalStateException && failure.getMessage() != null
					&& failure.getMessage().startsWith("@DistributedLock"))) {
				failure = failure.getCause();
			}
			assertThat(failure).as("an IllegalStateException about the annotation in %s", context.getStartupFailure())
				.isNotNull();
			assertThat(failure).hasMessageContaining(service.getSimpleName() + ".work(");
			for (String culprit : culprits) {
				assertThat(failure).hasMessageContaining(culprit);
			}
		});
	}

	private static Arguments startUpFailure(Class<?> service, String... culprits) {
		return Arguments.of(Named.of(service.getSimpleName(), service), culprits);
	}

	static class EmptyKey {

		@DistributedLock(key = "")
		public void work() {
		}

	}

	static class BlankKey {

		@DistributedLock(key = " \t ")
		public void work() {
		}

	}

	static class UnparsableKey {

		@DistributedLock(key = "'order:' +")
		public void work() {
		}

	}

	static class UnclosedKey {

		@DistributedLock(key = "{#p0")
		public void work(String id) {
		}

	}

	static class MisspelledParameter {

		@DistributedLock(key = "#ordreId")
		public void work(String orderId) {
		}

	}

	static class PositionBeyondParameters {

		@DistributedLock(key = "#p1")
		public void work(String orderId) {
		}

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

	static class UnresolvedHoldAtLeast {

		@DistributedLock(key = "'k'", holdAtLeast = "${orders.missing-hold}")
		public void work() {
		}

	}

	static class ZeroPermits {

		@DistributedLock(key = "'k'", type = LockType.SEMAPHORE, permits = 0)
		public void work() {
		}

	}

	static class NegativePermits {

		@DistributedLock(key = "'k'", type = LockType.SEMAPHORE, permits = -1)
		public void work() {
		}

	}

	static class MostNegativePermits {

		@DistributedLock(key = "'k'", type = LockType.SEMAPHORE, permits = Integer.MIN_VALUE)
		public void work() {
		}

	}

	static class PermitsOfAnExclusiveLock {

		@DistributedLock(key = "'k'", permits = 2)
		public void work() {
		}

	}

	static class PermitsOfAReadLock {

		@DistributedLock(key = "'k'", type = LockType.READ, permits = Integer.MAX_VALUE)
		public void work() {
		}

	}

	static class PermitsOfAWriteLock {

		@DistributedLock(key = "'k'", type = LockType.WRITE, permits = 3)
		public void work() {
		}

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

	static class UnresolvedName {

		@DistributedLock(key = "'k'", name = "${orders.missing-name}")
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
