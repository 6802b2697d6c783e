package com.example.billing;

import dev.zklock.DistributedLock;
import dev.zklock.LockHandle;

import org.springframework.stereotype.Service;

/**
 * The key expressions and wait times of the guide's "The annotation" chapter; each method
 * returns the key it locked. {@code GuideSamplesTests} runs it.
 */
@Service
public class BillingService {

	// tag::keys[]
	// a parameter by name
	@DistributedLock(key = "'order:' + #orderId")
	public String pay(String orderId) {
		return LockHandle.current().key();
	}

	// parameters by position
	@DistributedLock(key = "'invoice:' + #p0 + ':' + #a1")
	public String invoice(String customerId, int number) {
		return LockHandle.current().key();
	}

	// a property of a parameter
	@DistributedLock(key = "'customer:' + #order.customerId")
	public String ship(Order order) {
		return LockHandle.current().key();
	}

	// a bean
	@DistributedLock(key = "@tenant.id() + ':nightly'")
	public String closeDay() {
		return LockHandle.current().key();
	}

	// a literal key; try once
	@DistributedLock(key = "'nightly-report'", waitTime = "0")
	public String nightlyReport() {
		return LockHandle.current().key();
	}

	// a wait time from a property, two seconds when it is not set
	@DistributedLock(key = "#id", waitTime = "${orders.lock-wait:2s}")
	public String cancel(String id) {
		return LockHandle.current().key();
	}
	// end::keys[]

	/**
	 * An order of a customer.
	 *
	 * @param customerId the customer's id
	 */
	public record Order(String customerId) {
	}

	/**
	 * The tenant the application serves.
	 *
	 * @param id the tenant's id
	 */
	public record Tenant(String id) {
	}

}
