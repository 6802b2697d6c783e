package dev.zklock;

import java.lang.annotation.ElementType;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;

import org.junit.jupiter.api.Test;

import org.springframework.aot.hint.RuntimeHints;
import org.springframework.aot.hint.annotation.ReflectiveRuntimeHintsRegistrar;
import org.springframework.aot.hint.predicate.RuntimeHintsPredicates;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Tests for {@link DistributedLockReflectiveProcessor}, as Spring's ahead-of-time
 * processing applies it to the beans of an application.
 */
class DistributedLockReflectiveProcessorTests {

	private final RuntimeHints hints = new RuntimeHints();

	DistributedLockReflectiveProcessorTests() {
		new ReflectiveRuntimeHintsRegistrar().registerRuntimeHints(this.hints, Payments.class);
	}

	@Test
	void lockedMethodsCanBeInvoked() throws NoSuchMethodException {
		assertThat(
				RuntimeHintsPredicates.reflection().onMethodInvocation(Payments.class.getMethod("pay", String.class)))
			.accepts(this.hints);
	}

	@Test
	void methodsLockedThroughAComposedAnnotationCanBeInvoked() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Payments.class.getMethod("refund")))
			.accepts(this.hints);
	}

	@Test
	void inheritedLockedMethodsCanBeInvoked() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Ledger.class.getMethod("close")))
			.accepts(this.hints);
	}

	@Test
	void fallbacksCanBeInvoked() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Payments.class.getDeclaredMethod("busy", String.class))).accepts(this.hints);
		assertThat(RuntimeHintsPredicates.reflection()
			.onMethodInvocation(Payments.class.getDeclaredMethod("busy", String.class, LockException.class)))
			.accepts(this.hints);
	}

	@Test
	void otherMethodsAreLeftAlone() throws NoSuchMethodException {
		assertThat(RuntimeHintsPredicates.reflection().onMethodInvocation(Payments.class.getMethod("unlocked")))
			.rejects(this.hints);
	}

	@Retention(RetentionPolicy.RUNTIME)
	@Target(ElementType.METHOD)
	@DistributedLock(key = "'refunds'")
	@interface RefundLock {

	}

	static class Ledger {

		@DistributedLock(key = "'ledger'")
		public void close() {
		}

	}

	static class Payments extends Ledger {

		@DistributedLock(key = "'payment:' + #orderId", fallback = "busy")
		public String pay(String orderId) {
			return "paid " + orderId;
		}

		String busy(String orderId) {
			return "busy " + orderId;
		}

		String busy(String orderId, LockException failure) {
			return "busy " + orderId + ": " + failure.getMessage();
		}

		@RefundLock
		public void refund() {
		}

		public void unlocked() {
		}

	}

}
