package com.example.stock;

import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

import dev.zklock.DistributedLock;
import dev.zklock.LockHandle;

import org.springframework.stereotype.Service;

@Service
public class StockService {

	private final Map<String, Integer> stock = new ConcurrentHashMap<>();

	/**
	 * Adds to the stock of an item under the item's lock.
	 * @param sku the item
	 * @param count how many to add
	 * @return the fencing token of the lock
	 */
	@DistributedLock(key = "'stock:' + #sku")
	public long restock(String sku, int count) {
		this.stock.merge(sku, count, Integer::sum);
		return LockHandle.current().fencingToken();
	}

	public int count(String sku) {
		return this.stock.getOrDefault(sku, 0);
	}

}
