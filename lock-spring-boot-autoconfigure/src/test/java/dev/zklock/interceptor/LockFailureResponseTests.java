package dev.zklock.interceptor;

import java.time.Duration;
import java.util.Optional;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.DistributedLock;
import dev.zklock.LockException;
import dev.zklock.LockFailureHandler;
import dev.zklock.LockTimeoutException;
import dev.zklock.OnLockFailure;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * What a call does when another process holds its lock: each failure response returns or
 * throws what it promises, and the method body never runs.
 */
class LockFailureResponseTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static AcquiredLock heldElsewhere;

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withUserConfiguration(JobsConfiguration.class);

	@BeforeAll
	static void holdTheLockInAnotherSession() throws Exception {
		heldElsewhere = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks").acquire("busy",
				Duration.ofSeconds(5));
	}

	@AfterAll
	static void release() {
		heldElsewhere.release();
	}

	@Test
	void throwIsTheDefault() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(jobs::throwing)
				.withMessageContaining("'busy'");
			assertThat(jobs.runs()).isZero();
		});
	}

	@Test
	void skipReturnsNothingForEachReturnType() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			jobs.skippedVoid();
			assertThat(jobs.skippedString()).isNull();
			assertThat(jobs.skippedOptional()).isEmpty();
			assertThat(jobs.skippedBoxed()).isNull();
			assertThat(jobs.runs()).isZero();
		});
	}

	@Test
	void fallbackGetsTheArgumentsAndOptionallyTheFailure() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.quote("EUR", 3)).isEqualTo("cached EUR x3");
			assertThat(jobs.quoteWithFailure("USD")).isEqualTo("USD unavailable: LockTimeoutException");
			assertThat(jobs.runs()).isZero();
		});
	}

	@Test
	void failureHandlerDecidesTheResult() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThat(jobs.handled("x")).isEqualTo("handled handled(x) after LockTimeoutException");
			assertThat(jobs.runs()).isZero();
		});
	}

	@Test
	void failureHandlerResultOfTheWrongTypeIsAClearError() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThatIllegalStateException().isThrownBy(jobs::wronglyHandled)
				.withMessageContaining("LockFailureHandler 'wrongTypeHandler' returned a java.lang.String")
				.withMessageContaining("Jobs.wronglyHandled()");
			assertThat(jobs.runs()).isZero();
		});
	}

	@Test
	void lockExceptionsFromInsideTheMethodAreNotAnswered() {
		this.contextRunner.run((context) -> {
			Jobs jobs = context.getBean(Jobs.class);
			assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(jobs::outerWithFallback)
				.withMessageContaining("'busy'");
			assertThat(jobs.runs()).isOne();
		});
	}

	@Configuration(proxyBeanMethods = false)
	static class JobsConfiguration {

		@Bean
		Jobs jobs() {
			return new Jobs();
		}

		@Bean
		LockFailureHandler describingHandler() {
			return (failure, method, arguments) -> "handled " + method.getName() + "(" + arguments[0] + ") after "
					+ failure.getClass().getSimpleName();
		}

		@Bean
		LockFailureHandler wrongTypeHandler() {
			return (failure, method, arguments) -> "not a number";
		}

	}

	static class Jobs {

		private final AtomicInteger runs = new AtomicInteger();

		int runs() {
			return this.runs.get();
		}

		@DistributedLock(key = "'busy'", waitTime = "0")
		void throwing() {
			this.runs.incrementAndGet();
		}

		@DistributedLock(key = "'busy'", waitTime = "0", onFailure = OnLockFailure.SKIP)
		void skippedVoid() {
			this.runs.incrementAndGet();
		}

		@DistributedLock(key = "'busy'", waitTime = "0", onFailure = OnLockFailure.SKIP)
		String skippedString() {
			this.runs.incrementAndGet();
			return "ran";
		}

		@DistributedLock(key = "'busy'", waitTime = "0", onFailure = OnLockFailure.SKIP)
		Optional<String> skippedOptional() {
			this.runs.incrementAndGet();
			return Optional.of("ran");
		}

		@DistributedLock(key = "'busy'", waitTime = "0", onFailure = OnLockFailure.SKIP)
		Integer skippedBoxed() {
			this.runs.incrementAndGet();
			return 1;
		}

		@DistributedLock(key = "'busy'", waitTime = "100ms", fallback = "cachedQuote")
		String quote(String currency, int amount) {
			this.runs.incrementAndGet();
			return "live";
		}

		private String cachedQuote(String currency, int amount) {
			return "cached " + currency + " x" + amount;
		}

		@DistributedLock(key = "'busy'", waitTime = "0", fallback = "unavailable")
		String quoteWithFailure(String currency) {
			this.runs.incrementAndGet();
			return "live";
		}

		String unavailable(String currency, LockException failure) {
			return currency + " unavailable: " + failure.getClass().getSimpleName();
		}

		@DistributedLock(key = "'busy'", waitTime = "0", failureHandler = "describingHandler")
		String handled(String input) {
			this.runs.incrementAndGet();
			return "ran";
		}

		@DistributedLock(key = "'busy'", waitTime = "0", failureHandler = "wrongTypeHandler")
		Integer wronglyHandled() {
			this.runs.incrementAndGet();
			return 1;
		}

		@DistributedLock(key = "'free'", fallback = "outerFallback")
		String outerWithFallback() {
			this.runs.incrementAndGet();
			return throwingFromInside();
		}

		String outerFallback() {
			return "fallback must not answer a failure of the method itself";
		}

		private String throwingFromInside() {
			throw new LockTimeoutException("busy", Duration.ZERO);
		}

	}

}
