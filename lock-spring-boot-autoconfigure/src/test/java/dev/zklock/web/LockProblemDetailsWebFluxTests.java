package dev.zklock.web;

import dev.zklock.DistributedLock;
import reactor.core.publisher.Mono;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The problem details of lock failures in a WebFlux application on Reactor Netty, whose
 * locked method returns a {@link Mono} that the lock fails.
 */
class LockProblemDetailsWebFluxTests extends AbstractLockProblemDetailsTests {

	LockProblemDetailsWebFluxTests() {
		super(WebApplicationType.REACTIVE, ReactiveApplication.class);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import({ ReactivePaymentController.class, ReactivePayments.class })
	static class ReactiveApplication {

	}

	@RestController
	static class ReactivePaymentController {

		private final ReactivePayments payments;

		ReactivePaymentController(ReactivePayments payments) {
			this.payments = payments;
		}

		@PostMapping("/orders/{orderId}/payment")
		Mono<String> pay(@PathVariable String orderId) {
			return this.payments.pay(orderId);
		}

	}

	static class ReactivePayments {

		@DistributedLock(key = "'order:' + #orderId", waitTime = "0")
		Mono<String> pay(String orderId) {
			return Mono.fromSupplier(() -> "paid " + orderId);
		}

	}

}
