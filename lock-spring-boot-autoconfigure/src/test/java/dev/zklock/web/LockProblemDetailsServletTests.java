package dev.zklock.web;

import dev.zklock.DistributedLock;

import org.springframework.boot.WebApplicationType;
import org.springframework.boot.autoconfigure.EnableAutoConfiguration;
import org.springframework.context.annotation.Configuration;
import org.springframework.context.annotation.Import;
import org.springframework.web.bind.annotation.PathVariable;
import org.springframework.web.bind.annotation.PostMapping;
import org.springframework.web.bind.annotation.RestController;

/**
 * The problem details of lock failures in a Spring MVC application on Tomcat.
 */
class LockProblemDetailsServletTests extends AbstractLockProblemDetailsTests {

	LockProblemDetailsServletTests() {
		super(WebApplicationType.SERVLET, ServletApplication.class);
	}

	@Configuration(proxyBeanMethods = false)
	@EnableAutoConfiguration
	@Import({ PaymentController.class, Payments.class })
	static class ServletApplication {

	}

	// tag::controller[]
	@RestController
	static class PaymentController {

		private final Payments payments;

		PaymentController(Payments payments) {
			this.payments = payments;
		}

		@PostMapping("/orders/{orderId}/payment")
		String pay(@PathVariable String orderId) {
			return this.payments.pay(orderId);
		}

	}

	static class Payments {

		@DistributedLock(key = "'order:' + #orderId", waitTime = "0")
		String pay(String orderId) {
			return "paid " + orderId;
		}

	}
	// end::controller[]

}
