package com.example.catalog;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.DistributedLock;
import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.LockType;

import org.springframework.stereotype.Service;

/**
 * The lock types of the guide's "Lock types" chapter: a catalog that many read together
 * and one writes alone, and exports that four may run at once. {@code GuideSamplesTests}
 * runs it.
 */
@Service
public class CatalogService {

	private final List<String> items = new CopyOnWriteArrayList<>();

	private final LockTemplate lockTemplate;

	public CatalogService(LockTemplate lockTemplate) {
		this.lockTemplate = lockTemplate;
	}

	// tag::annotation[]
	// many readers together
	@DistributedLock(key = "'catalog'", type = LockType.READ)
	public List<String> items() {
		return List.copyOf(this.items);
	}

	// one writer, no readers
	@DistributedLock(key = "'catalog'", type = LockType.WRITE)
	public void add(String item) {
		this.items.add(item);
	}

	// up to four holders
	@DistributedLock(key = "'exports'", type = LockType.SEMAPHORE, permits = 4)
	public String export(String format) {
		return this.items.size() + " items as " + format;
	}
	// end::annotation[]

	// tag::template[]
	public List<String> snapshot() {
		return this.lockTemplate.execute(LockRequest.read("catalog"), (lock) -> List.copyOf(this.items));
	}

	public String exportWithin30Seconds(String format) {
		return this.lockTemplate.execute(LockRequest.semaphore("exports", 4).withWaitTime(Duration.ofSeconds(30)),
				(lock) -> this.items.size() + " items as " + format);
	}
	// end::template[]

}
