package com.example.quotes;

import java.math.BigDecimal;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.DistributedLock;
import dev.zklock.LockFailureHandler;
import dev.zklock.OnLockFailure;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.stereotype.Service;

/**
 * The four answers of the guide's "When the lock cannot be had" chapter to a lock that is
 * not acquired. {@code GuideSamplesTests} runs it.
 */
@Service
public class QuoteService {

	private final Map<String, BigDecimal> cachedQuotes = Map.of("EUR", new BigDecimal("1.08"));

	private final AtomicInteger nightlyRuns = new AtomicInteger();

	// tag::answers[]
	// throw LockTimeoutException (the default)
	@DistributedLock(key = "'nightly'", waitTime = "0")
	public void nightly() {
		this.nightlyRuns.incrementAndGet();
	}

	// return null, Optional.empty(), or nothing
	@DistributedLock(key = "'nightly'", waitTime = "0", onFailure = OnLockFailure.SKIP)
	public void nightlyUnlessRunning() {
		this.nightlyRuns.incrementAndGet();
	}

	// call another method of the bean
	@DistributedLock(key = "'quote:' + #currency", fallback = "cachedQuote")
	public BigDecimal quote(String currency) {
		return fetchQuote(currency);
	}

	// ask a LockFailureHandler bean
	@DistributedLock(key = "'quote:' + #currency", failureHandler = "busyQuotes")
	public BigDecimal liveQuote(String currency) {
		return fetchQuote(currency);
	}

	private BigDecimal cachedQuote(String currency) {
		return this.cachedQuotes.get(currency);
	}
	// end::answers[]

	public int nightlyRuns() {
		return this.nightlyRuns.get();
	}

	private BigDecimal fetchQuote(String currency) {
		return new BigDecimal("1.09");
	}

	/**
	 * The handler that {@link QuoteService#liveQuote} names.
	 */
	@Configuration(proxyBeanMethods = false)
	public static class QuoteConfiguration {

		// tag::handler[]
		@Bean
		LockFailureHandler busyQuotes() {
			return (failure, method, arguments) -> {
				throw new IllegalStateException("Quotes for " + arguments[0] + " are being refreshed, try again",
						failure);
			};
		}
		// end::handler[]

	}

}
