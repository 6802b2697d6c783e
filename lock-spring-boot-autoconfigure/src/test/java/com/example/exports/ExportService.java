package com.example.exports;

import java.time.Duration;
import java.time.LocalDate;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.DistributedLock;
import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.OnLockFailure;
import dev.zklock.ReactiveLockContext;
import reactor.core.publisher.Flux;
import reactor.core.publisher.Mono;

import org.springframework.scheduling.annotation.Scheduled;
import org.springframework.stereotype.Service;

/**
 * The asynchronous and reactive locks of the guide's "Asynchronous, reactive and virtual
 * threads" chapter: exports kept under their lock until they complete, an event feed, a
 * clean-up that runs once per tick across instances, and a reactive restock that writes
 * with its lock's fencing token. {@code GuideSamplesTests} runs it.
 */
@Service
public class ExportService {

	private final LockTemplate lockTemplate;

	private final Exporter exporter;

	private final Map<String, Integer> stock = new ConcurrentHashMap<>();

	private final Map<String, Long> stockTokens = new ConcurrentHashMap<>();

	private final AtomicInteger cleanups = new AtomicInteger();

	public ExportService(LockTemplate lockTemplate, Exporter exporter) {
		this.lockTemplate = lockTemplate;
		this.exporter = exporter;
	}

	// tag::annotation[]
	// held until the result completes
	@DistributedLock(key = "'export:' + #day")
	public CompletableFuture<Report> export(LocalDate day) {
		return this.exporter.start(day);
	}

	// held from subscription to termination
	@DistributedLock(key = "'feed:' + #id")
	public Flux<Event> replay(String id) {
		return Flux.just(new Event(id, 1), new Event(id, 2));
	}

	// tag::scheduled[]
	// once per tick across instances
	@Scheduled(cron = "0 */5 * * * *")
	@DistributedLock(key = "'cleanup'", waitTime = "0", onFailure = OnLockFailure.SKIP, holdAtLeast = "30s")
	public void cleanup() {
		removeExpired();
	}
	// end::scheduled[]
	// end::annotation[]

	// tag::template[]
	public CompletableFuture<Report> exportAll(LocalDate day) {
		return this.lockTemplate.executeAsync(LockRequest.exclusive("export"), (lock) -> this.exporter.start(day));
	}

	public void cleanupWithTemplate() {
		this.lockTemplate.execute(LockRequest.exclusive("cleanup").withHoldAtLeast(Duration.ofSeconds(30)),
				(lock) -> removeExpired());
	}
	// end::template[]

	// tag::reactive[]
	@DistributedLock(key = "'stock:' + #sku")
	public Mono<Void> restock(String sku, int count) {
		return ReactiveLockContext.currentLock().flatMap((lock) -> write(sku, count, lock.fencingToken()));
	}
	// end::reactive[]

	public int cleanups() {
		return this.cleanups.get();
	}

	public Integer stock(String sku) {
		return this.stock.get(sku);
	}

	public Long stockToken(String sku) {
		return this.stockTokens.get(sku);
	}

	private int removeExpired() {
		return this.cleanups.incrementAndGet();
	}

	private Mono<Void> write(String sku, int count, long fencingToken) {
		return Mono.fromRunnable(() -> {
			this.stock.merge(sku, count, Integer::sum);
			this.stockTokens.put(sku, fencingToken);
		});
	}

	/**
	 * Starts the export of a day, which completes later on a thread of its own.
	 */
	@FunctionalInterface
	public interface Exporter {

		/**
		 * Starts an export.
		 * @param day the day to export
		 * @return the report, once the export is done
		 */
		CompletableFuture<Report> start(LocalDate day);

	}

	/**
	 * An exported report.
	 *
	 * @param day the day it covers
	 */
	public record Report(LocalDate day) {
	}

	/**
	 * An event of a feed.
	 *
	 * @param feed the feed's id
	 * @param sequence the event's number in the feed
	 */
	public record Event(String feed, int sequence) {
	}

}
