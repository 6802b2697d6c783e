package dev.zklock.interceptor;

import java.util.stream.Stream;

import dev.zklock.DistributedLock;
import org.junit.jupiter.params.provider.Arguments;

/**
 * Key expressions that are empty, do not parse, or read a parameter the method does not
 * have fail start-up.
 */
class AnnotationKeyBadInputTests extends AbstractAnnotationBadInputTests {

	static Stream<Arguments> badAttributesFailStartUp() {
		return Stream.of(startUpFailure(EmptyKey.class, "empty key expression"),
				startUpFailure(BlankKey.class, "empty key expression"),
				startUpFailure(UnparsableKey.class, "key expression ''order:' +'", "does not parse"),
				startUpFailure(UnclosedKey.class, "key expression '{#p0'", "does not parse"),
				startUpFailure(MisspelledParameter.class, "'#ordreId', which is not a parameter"),
				startUpFailure(PositionBeyondParameters.class, "'#p1', which is not a parameter"));
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

}
