package dev.zklock.faults;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Objects;
import java.util.Set;
import java.util.function.Predicate;

import dev.zklock.testsupport.process.ZooKeeperEnsemble;
import org.springframework.util.FileSystemUtils;

/**
 * One run of the fault suite: ZooKeeper servers, the fenced store and worker processes,
 * all logging into {@code target/fault-runs/NAME}, and the check of what they recorded.
 * Each worker reaches each ZooKeeper server through a {@link LinkProxy link} of its own,
 * which the test can cut, slow down or break. Closing the run kills every process it
 * started, whatever state the test left them in, and writes the histories the store
 * recorded to the directory; a shutdown hook does the same if the test JVM ends first.
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

	private final ServerLinks serverLinks = new ServerLinks();

	private final Setup setup;

	private final List<WorkerProcess> workers = new ArrayList<>();

	private final WorkerLinks links;

	private final Set<String> survivors = new LinkedHashSet<>();

	private final Thread shutdownHook = new Thread(this::close);

	private long quietFrom;

	private RunRecord checked;

	private FaultRun(String name, Path directory, Setup setup) throws IOException {
		this.name = name;
		this.directory = directory;
		this.setup = setup;
		this.store = new FencedStore(setup.storeAcceptsStaleTokens());
		this.ensemble = FaultServers.configure(directory, setup.servers(), this.serverLinks);
		this.links = new WorkerLinks(this.ensemble);
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * Starts ZooKeeper, the links and the workers, and waits until every worker thread
	 * has written to the store under a lock.
	 * @param name the run's name, naming its directory
	 * @param setup what to start
	 * @return the running run
	 */
	static FaultRun start(String name, Setup setup) throws Exception {
		Path directory = Path.of("target", "fault-runs", name).toAbsolutePath();
		FileSystemUtils.deleteRecursively(directory);
		Files.createDirectories(directory);
		FaultRun run = new FaultRun(name, directory, setup);
		try {
			run.ensemble.start();
			run.ensemble.awaitServing(Duration.ofSeconds(30));
			for (int i = 1; i <= WORKERS; i++) {
				run.startWorker((i == 1) ? setup.victimProperties() : List.of());
			}
			run.awaitEveryThreadWrote(run.now(), Duration.ofSeconds(60));
			return run;
		}
		catch (Exception | Error ex) {
			run.close();
			throw ex;
		}
	}

	/**
	 * Starts a worker named after its place among every worker the run started, with
	 * links of its own to every server.
	 * @param extraProperties properties of its application besides every worker's
	 * @return the started worker
	 */
	private WorkerProcess startWorker(List<String> extraProperties) throws IOException {
		String worker = "w" + (this.workers.size() + 1);
		String connectString = this.links.open(worker);
		List<String> properties = new ArrayList<>(this.setup.workerProperties());
		properties.add("distributed-lock.zookeeper.session-timeout=" + this.setup.sessionTimeout().toMillis() + "ms");
		properties.addAll(extraProperties);
		WorkerProcess started = WorkerProcess.start(worker, this.directory, connectString, this.store,
				THREADS_PER_WORKER, KEYS, WAIT_TIME, properties);
		this.workers.add(started);
		this.survivors.add(worker);
		return started;
	}

	ZooKeeperEnsemble ensemble() {
		return this.ensemble;
	}

	ServerLinks serverLinks() {
		return this.serverLinks;
	}

	/**
	 * The session timeout the workers ask for.
	 * @return the session timeout
	 */
	Duration sessionTimeout() {
		return this.setup.sessionTimeout();
	}

	/**
	 * The wait time of every lock the workers take.
	 * @return the wait time
	 */
	Duration waitTime() {
		return WAIT_TIME;
	}

	/**
	 * The time on the run's one clock, the store's, which stamps every event.
	 * @return the store's time, in microseconds
	 */
	long now() {
		return this.store.now();
	}

	/**
	 * The links of the workers to the servers.
	 * @return the links
	 */
	WorkerLinks links() {
		return this.links;
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
		long sentAt = now();
		worker.send("stall " + stall.toMillis());
		return awaitEvent(List.of(worker),
				(event) -> event.type() == HistoryEvent.Type.STALL && event.timeMicros() >= sentAt,
				Duration.ofSeconds(10));
	}

	/**
	 * Waits until a worker records an event.
	 * @param worker the worker to watch
	 * @param wanted the event to wait for
	 * @param timeout how long to wait
	 * @return the first such event
	 */
	HistoryEvent awaitEvent(WorkerProcess worker, Predicate<HistoryEvent> wanted, Duration timeout)
			throws InterruptedException {
		return awaitEvent(List.of(worker), wanted, timeout);
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
	void kill(WorkerProcess worker) {
		worker.kill();
		this.survivors.remove(worker.name());
	}

	/**
	 * Starts a worker in place of a killed one, under a name of its own and with the
	 * properties of every worker: it has to make progress as the survivors do.
	 * @return the new worker
	 */
	WorkerProcess startReplacement() throws IOException {
		return startWorker(List.of());
	}

	/**
	 * Marks the moment the faults cleared: from now on every surviving thread must make
	 * progress.
	 */
	void faultsCleared() {
		this.quietFrom = now();
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
		long endedAt = now();
		for (WorkerProcess worker : this.workers) {
			if (this.survivors.contains(worker.name()) && !worker.stop(Duration.ofSeconds(15))) {
				throw new IllegalStateException(worker + " did not stop cleanly: see " + worker.name() + ".log");
			}
		}
		this.store.saveLog(this.directory.resolve("store.log"));
		this.store.saveHistories(this.directory);
		RunRecord record = new RunRecord(histories(), this.store.log(), this.store.values(), this.quietFrom, endedAt,
				Set.copyOf(this.survivors));
		this.checked = record;
		List<Violation> violations = new HistoryChecker(MAX_SILENCE).check(record);
		Files.write(this.directory.resolve("check.txt"), summary(record, violations), StandardCharsets.UTF_8);
		return violations;
	}

	/**
	 * What the last {@link #quietThenCheck(Duration) check} went over.
	 * @return the record checked
	 */
	RunRecord checked() {
		return Objects.requireNonNull(this.checked, "Not checked yet");
	}

	/**
	 * The run's directory, which its processes log into.
	 * @return the directory
	 */
	Path directory() {
		return this.directory;
	}

	private List<History> histories() {
		return this.workers.stream().map(WorkerProcess::history).toList();
	}

	/**
	 * The number of events of a kind that a worker recorded between two times.
	 * @param worker the worker
	 * @param wanted the events to count
	 * @param from the first time, on the store's clock
	 * @param to the last time
	 * @return the number of such events
	 */
	long count(WorkerProcess worker, Predicate<HistoryEvent> wanted, long from, long to) {
		return worker.history()
			.events()
			.stream()
			.filter((event) -> event.timeMicros() >= from && event.timeMicros() <= to && wanted.test(event))
			.count();
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
		lines.add("holds: " + record.holdCount() + ", writes accepted: " + record.acceptedWrites() + ", rejected: "
				+ record.refusedWrites() + ", final values: " + record.finalValues());
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
	 * Kills every worker and ZooKeeper server still running, writes the histories the
	 * store recorded, and stops the links and the store.
	 */
	@Override
	public void close() {
		this.workers.forEach(WorkerProcess::close);
		this.ensemble.close();
		this.serverLinks.close();
		this.links.close();
		this.store.saveHistories(this.directory);
		this.store.close();
		try {
			Runtime.getRuntime().removeShutdownHook(this.shutdownHook);
		}
		catch (IllegalStateException ex) {
			// The JVM is shutting down: this is the hook running
		}
	}

	/**
	 * What a run starts.
	 *
	 * @param servers the number of ZooKeeper servers: 1 for a standalone server
	 * @param sessionTimeout the session timeout of the workers
	 * @param workerProperties properties of every worker's application, as
	 * {@code name=value}
	 * @param victimProperties properties of the first worker's application only
	 * @param storeAcceptsStaleTokens whether the fenced store is broken and accepts every
	 * write
	 */
	record Setup(int servers, Duration sessionTimeout, List<String> workerProperties, List<String> victimProperties,
			boolean storeAcceptsStaleTokens) {

		/**
		 * A run of correct workers and store, with the default session timeout.
		 * @param servers the number of ZooKeeper servers
		 * @return the setup
		 */
		static Setup of(int servers) {
			return new Setup(servers, FaultWorker.SESSION_TIMEOUT, List.of(), List.of(), false);
		}

	}

}
