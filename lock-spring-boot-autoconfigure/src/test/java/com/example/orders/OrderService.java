package com.example.orders;

import java.time.Duration;

import dev.zklock.DistributedLock;
import dev.zklock.LockTemplate;

import org.springframework.stereotype.Service;

@Service
public class OrderService {

	private final LockTemplate lockTemplate;

	public OrderService(LockTemplate lockTemplate) {
		this.lockTemplate = lockTemplate;
	}

	@DistributedLock(key = "'order:' + #orderId", waitTime = "3s")
	public String pay(String orderId) {
		return "paid " + orderId;
	}

	public String refund(String orderId) {
		return this.lockTemplate.execute("order:" + orderId, Duration.ofSeconds(3),
				(lock) -> "refunded " + orderId + " with fencing token " + lock.fencingToken());
	}

}
