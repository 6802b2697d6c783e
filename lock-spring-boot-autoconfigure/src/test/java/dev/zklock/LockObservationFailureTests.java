package dev.zklock;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.zklock.observation.LockObservationContext;
import dev.zklock.observation.LockObservationContext.Outcome;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import io.micrometer.observation.Observation;
import io.micrometer.observation.ObservationHandler;
import io.micrometer.observation.ObservationRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationContext;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

/**
 * An exception from observation code (an {@link ObservationHandler} of the application's
 * {@link ObservationRegistry}) is logged and changes nothing for the lock: it is
 * released, and the caller gets the protected code's own result or exception.
 */
class LockObservationFailureTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static ZooKeeperLockRegistry otherProcess;

	@BeforeAll
	static void connectOtherProcess() throws Exception {
		otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
	}

	private static ApplicationContextRunner withFailingHandler(Outcome failOnStopWith, boolean failOnHoldStart) {
		return LockApplications.connectedTo(zookeeper).withBean(ObservationRegistry.class, () -> {
			ObservationRegistry registry = ObservationRegistry.create();
			registry.observationConfig().observationHandler(new FailingHandler(failOnStopWith, failOnHoldStart));
			return registry;
		});
	}

	@Test
	void handlerFailingWhenTheAcquisitionEndsChangesNothingForTheLock() {
		withFailingHandler(Outcome.ACQUIRED, false).run((context) -> assertRunsAndReleases(context, "obs:acq"));
	}

	@Test
	void handlerFailingWhenTheHoldStartsChangesNothingForTheLock() {
		withFailingHandler(null, true).run((context) -> assertRunsAndReleases(context, "obs:hold"));
	}

	@Test
	void handlerFailingWhenAnAsyncHoldEndsStillCompletesTheResult() {
		withFailingHandler(Outcome.RELEASED, false).run((context) -> {
			LockTemplate template = context.getBean(LockTemplate.class);
			CompletableFuture<String> work = new CompletableFuture<>();
			CompletableFuture<String> result = template.executeAsync(LockRequest.exclusive("obs:async"),
					(lock) -> work);
			CompletableFuture.runAsync(() -> work.complete("done"));
			assertThat(result).as("result of the asynchronous call")
				.succeedsWithin(5, TimeUnit.SECONDS)
				.isEqualTo("done");
		});
	}

	@Test
	void handlerFailingWhenAnAcquisitionTimesOutLetsTheTimeoutThrough() throws Exception {
		withFailingHandler(Outcome.TIMED_OUT, false).run((context) -> {
			LockTemplate template = context.getBean(LockTemplate.class);
			AcquiredLock held = otherProcess.acquire("obs:timeout", Duration.ofSeconds(2));
			try {
				assertThatThrownBy(() -> template.execute("obs:timeout", Duration.ZERO, (lock) -> "never"))
					.isInstanceOf(LockTimeoutException.class);
			}
			finally {
				held.release();
			}
		});
	}

	@Test
	void handlerFailingWhenTheHoldEndsLetsTheProtectedCodesExceptionThrough() {
		withFailingHandler(Outcome.RELEASED, false).run((context) -> {
			LockTemplate template = context.getBean(LockTemplate.class);
			IllegalStateException failure = new IllegalStateException("business failure");
			assertThatThrownBy(() -> template.execute("obs:replace", (lock) -> {
				throw failure;
			})).isSameAs(failure);
		});
	}

	private static void assertRunsAndReleases(ApplicationContext context, String key) {
		LockTemplate template = context.getBean(LockTemplate.class);
		assertThat(template.<String>execute(key, (lock) -> "ran")).isEqualTo("ran");
		assertThat(context.getBean(ZooKeeperLockRegistry.class).keysInUse()).as("keys in use after the call").isZero();
		assertThatNoException().as("another process can lock the key")
			.isThrownBy(() -> otherProcess.acquire(key, Duration.ofSeconds(2)).release());
	}

	static final class FailingHandler implements ObservationHandler<Observation.Context> {

		private final Outcome failOnStopWith;

		private final boolean failOnHoldStart;

		FailingHandler(Outcome failOnStopWith, boolean failOnHoldStart) {
			this.failOnStopWith = failOnStopWith;
			this.failOnHoldStart = failOnHoldStart;
		}

		@Override
		public boolean supportsContext(Observation.Context context) {
			return context instanceof LockObservationContext;
		}

		@Override
		public void onStart(Observation.Context context) {
			if (this.failOnHoldStart && "distributed.lock.hold".equals(context.getName())) {
				throw new HandlerFailure();
			}
		}

		@Override
		public void onStop(Observation.Context context) {
			if (this.failOnStopWith != null && ((LockObservationContext) context).getOutcome() == this.failOnStopWith) {
				throw new HandlerFailure();
			}
		}

	}

	/**
	 * A handler's deliberate failure, without a stack trace: the warning it causes is
	 * expected, and its trace would only fill the build's output.
	 */
	static class HandlerFailure extends RuntimeException {

		HandlerFailure() {
			super("metrics broke", null, false, false);
		}

	}

}
