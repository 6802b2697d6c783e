package dev.zklock.test.shop;

import java.io.IOException;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.DistributedLock;
import dev.zklock.LockHandle;
import dev.zklock.LockType;
import dev.zklock.OnLockFailure;

import org.springframework.stereotype.Service;

/**
 * Pays and refunds orders under their lock, reads prices under the catalog's read lock,
 * and closes the day once, skipping it while another instance closes it.
 */
@Service
public class OrderService {

	private final Ledger ledger;

	private final AtomicInteger closedDays = new AtomicInteger();

	OrderService(Ledger ledger) {
		this.ledger = ledger;
	}

	@DistributedLock(key = "'order:' + #orderId", waitTime = "0")
	public long pay(String orderId) {
		this.ledger.record(orderId);
		return LockHandle.current().fencingToken();
	}

	@DistributedLock(key = "'order:' + #orderId", waitTime = "0")
	public void refund(String orderId) throws IOException {
		if (orderId.isEmpty()) {
			throw new IOException("No order to refund");
		}
		this.ledger.record(orderId);
	}

	public void payWithoutLock(String orderId) {
		this.ledger.record(orderId);
	}

	@DistributedLock(key = "'catalog'", type = LockType.READ)
	public int price(String item) {
		return item.length();
	}

	@DistributedLock(key = "'day'", waitTime = "0", onFailure = OnLockFailure.SKIP)
	public void closeDay() {
		this.closedDays.incrementAndGet();
	}

	public int closedDays() {
		return this.closedDays.get();
	}

}
