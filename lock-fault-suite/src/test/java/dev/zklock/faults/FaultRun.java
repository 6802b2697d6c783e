package dev.zklock.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import java.util.function.Predicate;

import org.springframework.util.FileSystemUtils;

/**
 * One run of the fault suite: ZooKeeper servers, the fenced store and worker processes,
 * all recording into {@code target/fault-runs/NAME}, and the check of what they recorded.
 * Closing the run kills every process it started, whatever state the test left them in; a
 * shutdown hook does the same if the test JVM ends first.
 */
final class FaultRun implements AutoCloseable {

	/** Keys the workers lock: few, so that every key is contended. */
	private static final List<String> KEYS = List.of("alpha", "beta");

	private static final int WORKERS = 3;

	private static final int THREADS_PER_WORKER = 2;

	private static final Duration WAIT_TIME = Duration.ofSeconds(2);

	private static final Duration MAX_SILENCE = Duration.ofSeconds(6);

	private final String name;

	private final Path directory;

	private final FencedStore store;

	private final ZooKeeperEnsemble ensemble;

	private final List<WorkerProcess> workers = new ArrayList<>();

	private final Set<String> survivors = new LinkedHashSet<>();

	private final Thread shutdownHook = new Thread(this::close);

	private long quietFrom;

	private FaultRun(String name, Path directory, int servers) throws IOException {
		this.name = name;
		this.directory = directory;
		this.store = new FencedStore();
		this.ensemble = new ZooKeeperEnsemble(directory, servers);
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * Starts ZooKeeper and the workers, and waits until every worker thread has written
	 * to the store under a lock.
	 * @param name the run's name, naming its directory
	 * @param servers the number of ZooKeeper servers: 1 for a standalone server
	 * @return the running run
	 */
	static FaultRun start(String name, int servers) throws Exception {
		Path directory = Path.of("target", "fault-runs", name).toAbsolutePath();
		FileSystemUtils.deleteRecursively(directory);
		Files.createDirectories(directory);
		FaultRun run = new FaultRun(name, directory, servers);
		try {
			run.ensemble.start();
			run.ensemble.awaitServing(Duration.ofSeconds(30));
			for (int i = 1; i <= WORKERS; i++) {
				WorkerProcess worker = WorkerProcess.start("w" + i, directory, run.ensemble.connectString(),
						run.store.uri(), THREADS_PER_WORKER, KEYS, WAIT_TIME);
				run.workers.add(worker);
				run.survivors.add(worker.name());
			}
			run.awaitEveryThreadWrote(HistoryEvent.nowMicros(), Duration.ofSeconds(60));
			return run;
		}
		catch (Exception | Error ex) {
			run.close();
			throw ex;
		}
	}

	ZooKeeperEnsemble ensemble() {
		return this.ensemble;
	}

	List<WorkerProcess> workers() {
		return List.copyOf(this.workers);
	}

	/**
	 * Makes the next thread of the worker to take a lock stall inside its critical
	 * section, between reading and writing the store, and waits until one does.
	 * @param worker the worker
	 * @param stall how long the holder stalls
	 * @return the holder's {@code STALL} event (its key and token)
	 */
	HistoryEvent stallNextHolder(WorkerProcess worker, Duration stall) throws InterruptedException {
		long sentAt = HistoryEvent.nowMicros();
		worker.send("stall " + stall.toMillis());
		return awaitEvent(List.of(worker),
				(event) -> event.type() == HistoryEvent.Type.STALL && event.timeMicros() >= sentAt,
				Duration.ofSeconds(10));
	}

	/**
	 * Waits until one of the workers records an event.
	 * @param workers the workers to watch
	 * @param wanted the event to wait for
	 * @param timeout how long to wait
	 * @return the first such event
	 */
	HistoryEvent awaitEvent(List<WorkerProcess> workers, Predicate<HistoryEvent> wanted, Duration timeout)
			throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			for (WorkerProcess worker : workers) {
				for (HistoryEvent event : worker.history().events()) {
					if (wanted.test(event)) {
						return event;
					}
				}
			}
			Thread.sleep(20);
		}
		throw new IllegalStateException(workers + " recorded no wanted event within " + timeout);
	}

	/**
	 * Every worker but one.
	 * @param worker the worker to leave out
	 * @return the other workers
	 */
	List<WorkerProcess> othersThan(WorkerProcess worker) {
		return this.workers.stream().filter((other) -> other != worker).toList();
	}

	/**
	 * Kills a worker ({@code kill -9}); it no longer has to make progress.
	 * @param worker the worker to kill
	 */
	void kill(WorkerProcess worker) throws InterruptedException {
		worker.kill();
		this.survivors.remove(worker.name());
	}

	/**
	 * Marks the moment the faults cleared: from now on every surviving thread must make
	 * progress.
	 */
	void faultsCleared() {
		this.quietFrom = HistoryEvent.nowMicros();
	}

	/**
	 * Lets the workers run for a quiet period after the faults cleared, stops them, and
	 * checks what they and the store recorded.
	 * @param quietPeriod how long the workers run on without faults
	 * @return the violations found, also written to {@code check.txt}
	 */
	List<Violation> quietThenCheck(Duration quietPeriod) throws Exception {
		if (this.quietFrom == 0) {
			faultsCleared();
		}
		Thread.sleep(quietPeriod.toMillis());
		long endedAt = HistoryEvent.nowMicros();
		for (WorkerProcess worker : this.workers) {
			if (this.survivors.contains(worker.name()) && !worker.stop(Duration.ofSeconds(15))) {
				throw new IllegalStateException(worker + " did not stop cleanly: see " + worker.name() + ".log");
			}
		}
		this.store.saveLog(this.directory.resolve("store.log"));
		RunRecord record = new RunRecord(histories(), this.store.log(), this.store.values(), this.quietFrom, endedAt,
				Set.copyOf(this.survivors));
		List<Violation> violations = new HistoryChecker(MAX_SILENCE).check(record);
		Files.write(this.directory.resolve("check.txt"), summary(record, violations), StandardCharsets.UTF_8);
		return violations;
	}

	private List<History> histories() {
		return this.workers.stream().map(WorkerProcess::history).toList();
	}

	private void awaitEveryThreadWrote(long since, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (histories().stream().allMatch((history) -> everyThreadWrote(history, since))) {
				return;
			}
			Thread.sleep(100);
		}
		throw new IllegalStateException("Not every worker thread wrote within " + timeout + ": see " + this.directory);
	}

	private static boolean everyThreadWrote(History history, long since) {
		List<Hold> holds = history.holds();
		return history.threads().size() == THREADS_PER_WORKER && history.threads()
			.stream()
			.allMatch((thread) -> holds.stream()
				.anyMatch(
						(hold) -> hold.thread().equals(thread) && hold.acquiredAt() >= since && hold.wroteAccepted()));
	}

	private static List<String> summary(RunRecord record, List<Violation> violations) {
		List<String> lines = new ArrayList<>();
		long holds = record.histories().stream().mapToLong((history) -> history.holds().size()).sum();
		long accepted = record.storeLog().stream().filter(StoreWrite::accepted).count();
		lines.add("holds: " + holds + ", writes accepted: " + accepted + ", rejected: "
				+ (record.storeLog().size() - accepted) + ", final values: " + record.finalValues());
		lines.add("quiet from " + record.quietFrom() + " to " + record.endedAt() + ", survivors " + record.survivors());
		lines.add(violations.size() + " violations");
		violations.forEach((violation) -> lines.add(violation.toString()));
		return lines;
	}

	/**
	 * Prints an observation of the run (timings, what a holder saw) to the test output.
	 * @param format the message's format
	 * @param arguments the message's arguments
	 */
	void report(String format, Object... arguments) {
		System.out.println("[" + this.name + "] " + String.format(format, arguments));
	}

	/**
	 * Kills every worker and ZooKeeper server still running and stops the store.
	 */
	@Override
	public void close() {
		for (WorkerProcess worker : this.workers) {
			try {
				worker.close();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
		this.ensemble.close();
		this.store.close();
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// The JVM is shutting down: this is the hook running
		}
	}

}
