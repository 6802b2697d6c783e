package com.example.inventory;

import java.util.concurrent.TimeUnit;

import dev.zklock.zookeeper.ZooKeeperLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;

public class StockReservations {

	private final ZooKeeperLockRegistry zooKeeperLockRegistry;

	public StockReservations(ZooKeeperLockRegistry zooKeeperLockRegistry) {
		this.zooKeeperLockRegistry = zooKeeperLockRegistry;
	}

	public String reserve(String sku) throws InterruptedException {
		ZooKeeperLock lock = this.zooKeeperLockRegistry.obtain("inventory:" + sku);
		if (!lock.tryLock(2, TimeUnit.SECONDS)) {
			return sku + " is busy";
		}
		try {
			return "reserved " + sku + " with fencing token " + lock.handle().fencingToken();
		}
		finally {
			lock.unlock();
		}
	}

}
