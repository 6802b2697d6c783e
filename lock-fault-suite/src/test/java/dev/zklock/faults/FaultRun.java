package dev.zklock.faults;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
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

	private final String name;

	private final Path directory;

	private final FencedStore store;

	private final ZooKeeperEnsemble ensemble;

	private final ServerLinks serverLinks = new ServerLinks();

	private final RunSetup setup;

	private final WorkerLinks links;

	private final RunWorkers workers;

	private final Thread shutdownHook = new Thread(this::close);

	private final RunCheck check;

	private FaultRun(String name, Path directory, RunSetup setup) throws IOException {
		this.name = name;
		this.directory = directory;
		this.setup = setup;
		this.store = new FencedStore(setup.storeAcceptsStaleTokens());
		this.ensemble = FaultServers.configure(directory, setup.servers(), this.serverLinks);
		this.links = new WorkerLinks(this.ensemble);
		this.workers = new RunWorkers(directory, this.store, this.links, setup);
		this.check = new RunCheck(directory, this.store, this.workers);
		Runtime.getRuntime().addShutdownHook(this.shutdownHook);
	}

	/**
	 * Starts ZooKeeper, the links and the workers, and waits until every worker thread
	 * has made a hold that did its work.
	 * @param name the run's name, naming its directory
	 * @param setup what to start
	 * @return the running run
	 */
	static FaultRun start(String name, RunSetup setup) throws Exception {
		Path directory = Path.of("target", "fault-runs", name).toAbsolutePath();
		FileSystemUtils.deleteRecursively(directory);
		Files.createDirectories(directory);
		FaultRun run = new FaultRun(name, directory, setup);
		try {
			run.ensemble.start();
			run.ensemble.awaitServing(Duration.ofSeconds(60));
			for (int i = 0; i < setup.workers().size(); i++) {
				run.workers.start(setup.workers().get(i), (i == 0) ? setup.victimProperties() : List.of());
			}
			run.workers.awaitEveryThreadProgressed(run.now(), Duration.ofSeconds(60));
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
		return RunWorkers.WAIT_TIME;
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
		return this.workers.all();
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

	/**
	 * Every worker but one.
	 * @param worker the worker to leave out
	 * @return the other workers
	 */
	List<WorkerProcess> othersThan(WorkerProcess worker) {
		return this.workers.othersThan(worker);
	}

	/**
	 * Kills a worker ({@code kill -9}); it no longer has to make progress.
	 * @param worker the worker to kill
	 */
	void kill(WorkerProcess worker) {
		this.workers.kill(worker);
	}

	/**
	 * Starts a worker in place of a killed one, of the same kind, under a name of its own
	 * and with the properties of every worker: it has to make progress as the survivors
	 * do.
	 * @param killed the killed worker
	 * @return the new worker
	 */
	WorkerProcess startReplacement(WorkerProcess killed) throws IOException {
		return this.workers.start(killed.kind(), List.of());
	}

	/**
	 * Waits until one of the workers makes a hold that does its work (an accepted write;
	 * for a reader or a semaphore's holder, a valid sample) after a time.
	 * @param workers the workers to watch: one worker, or the leader workers, of which
	 * one at a time leads
	 * @param after the time, on the store's clock
	 * @param timeout how long to wait
	 * @throws IllegalStateException if none makes one in time
	 */
	void awaitCompletedHold(List<WorkerProcess> workers, long after, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (workers.stream()
			.noneMatch((worker) -> worker.history().holds().stream().anyMatch((hold) -> hold.completedAfter(after)))) {
			if (System.nanoTime() - deadline > 0) {
				throw new IllegalStateException(workers + " made no hold that did its work within " + timeout);
			}
			Thread.sleep(20);
		}
	}

	/**
	 * Marks the moment the faults cleared: from now on every surviving thread must make
	 * progress.
	 */
	void faultsCleared() {
		this.check.faultsCleared();
	}

	/**
	 * Lets the workers run for a quiet period after the faults cleared, stops them, and
	 * checks what they and the store recorded.
	 * @param quietPeriod how long the workers run on without faults
	 * @return the violations found, also written to {@code check.txt}
	 */
	List<Violation> quietThenCheck(Duration quietPeriod) throws Exception {
		return this.check.quietThenCheck(quietPeriod);
	}

	/**
	 * What the last {@link #quietThenCheck(Duration) check} went over.
	 * @return the record checked
	 */
	RunRecord checked() {
		return this.check.checked();
	}

	/**
	 * The run's directory, which its processes log into.
	 * @return the directory
	 */
	Path directory() {
		return this.directory;
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
		this.workers.close();
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

}
