package dev.zklock.test.shop;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.LockType;
import dev.zklock.test.LockAssertions;

import org.springframework.stereotype.Component;

/**
 * Records payments, which it expects to be made under the order's exclusive lock.
 */
@Component
public class Ledger {

	private final List<String> payments = new CopyOnWriteArrayList<>();

	void record(String orderId) {
		LockAssertions.assertLocked("order:" + orderId, LockType.EXCLUSIVE);
		this.payments.add(orderId);
	}

	public List<String> payments() {
		return this.payments;
	}

}
