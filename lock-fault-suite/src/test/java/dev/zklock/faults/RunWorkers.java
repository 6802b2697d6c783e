package dev.zklock.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;

/**
 * The worker processes of a {@link FaultRun}: starts each, named after its place among
 * every worker the run started, with {@link WorkerLinks links} of its own to every
 * server, and knows which of them must make progress to the end: every worker not killed.
 */
final class RunWorkers implements AutoCloseable {

	/** The wait time of every lock the workers take. */
	static final Duration WAIT_TIME = Duration.ofSeconds(2);

	private static final int THREADS_PER_WORKER = 2;

	/**
	 * The system property that gives every worker's registry that many ZooKeeper sessions
	 * ({@code distributed-lock.zookeeper.sessions}), 1 unless it is set; every session's
	 * client reaches the servers through the worker's links.
	 */
	static final String SESSIONS = "fault-suite.sessions";

	private final Path directory;

	private final FencedStore store;

	private final WorkerLinks links;

	private final RunSetup setup;

	private final List<WorkerProcess> workers = new ArrayList<>();

	private final Set<String> survivors = new LinkedHashSet<>();

	/**
	 * Creates the workers of a run; none is started yet.
	 * @param directory the run's directory, which the workers log into
	 * @param store the fenced store the workers write to
	 * @param links the links the workers reach the servers through
	 * @param setup what the run starts
	 */
	RunWorkers(Path directory, FencedStore store, WorkerLinks links, RunSetup setup) {
		this.directory = directory;
		this.store = store;
		this.links = links;
		this.setup = setup;
	}

	/**
	 * Starts a worker with the properties of every worker and its own.
	 * @param kind the locks its threads take
	 * @param extraProperties properties of its application besides every worker's
	 * @return the started worker
	 */
	WorkerProcess start(WorkerKind kind, List<String> extraProperties) throws IOException {
		String worker = "w" + (this.workers.size() + 1);
		String connectString = this.links.open(worker);
		List<String> properties = new ArrayList<>(this.setup.workerProperties());
		properties.add("distributed-lock.zookeeper.session-timeout=" + this.setup.sessionTimeout().toMillis() + "ms");
		properties.add("distributed-lock.zookeeper.sessions=" + System.getProperty(SESSIONS, "1").trim());
		properties.addAll(extraProperties);
		WorkerProcess started = WorkerProcess.start(worker, this.directory, connectString, this.store,
				kind.threads(THREADS_PER_WORKER), kind, WAIT_TIME, properties);
		this.workers.add(started);
		this.survivors.add(worker);
		return started;
	}

	/**
	 * Every worker started, killed ones included, in the order they started.
	 * @return the workers
	 */
	List<WorkerProcess> all() {
		return List.copyOf(this.workers);
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
	 * The names of the workers that must make progress.
	 * @return the names of the workers not killed
	 */
	Set<String> survivors() {
		return Set.copyOf(this.survivors);
	}

	/**
	 * What every worker recorded so far.
	 * @return the history of every worker, dead or alive
	 */
	List<History> histories() {
		return this.workers.stream().map(WorkerProcess::history).toList();
	}

	/**
	 * Waits until every thread of every worker has made a hold that did its work (an
	 * accepted write; for a reader or a semaphore's holder, a valid sample), but for the
	 * candidates of leader workers, of which one at a time leads: one of them did.
	 * @param since the time from which holds count, on the store's clock
	 * @param timeout how long to wait
	 */
	void awaitEveryThreadProgressed(long since, Duration timeout) throws InterruptedException {
		long deadline = System.nanoTime() + timeout.toNanos();
		while (System.nanoTime() < deadline) {
			if (this.workers.stream().allMatch((worker) -> everyThreadProgressed(worker, since))
					&& someCandidateProgressed(histories(), since)) {
				return;
			}
			Thread.sleep(100);
		}
		throw new IllegalStateException(
				"Not every worker thread made a hold within " + timeout + ": see " + this.directory);
	}

	private static boolean everyThreadProgressed(WorkerProcess worker, long since) {
		History history = worker.history();
		return history.threads().size() == worker.kind().threads(THREADS_PER_WORKER) && history.threads()
			.stream()
			.allMatch((thread) -> history.isCandidate(thread) || history.progressed(thread, since));
	}

	/**
	 * Whether a candidate of a leader worker, if there are any, wrote as a leader after a
	 * time ({@link History#ledAfter}).
	 * @param histories the histories of the workers
	 * @param since the time, on the store's clock
	 * @return whether one did, or there are no candidates
	 */
	static boolean someCandidateProgressed(List<History> histories, long since) {
		boolean candidates = false;
		for (History history : histories) {
			for (String thread : history.threads()) {
				if (history.isCandidate(thread)) {
					candidates = true;
					if (history.ledAfter(thread, since)) {
						return true;
					}
				}
			}
		}
		return !candidates;
	}

	/**
	 * Tells every surviving worker to stop and waits for each to exit.
	 * @throws IllegalStateException if one does not stop cleanly
	 */
	void stopSurvivors() throws InterruptedException {
		for (WorkerProcess worker : this.workers) {
			if (this.survivors.contains(worker.name()) && !worker.stop(Duration.ofSeconds(15))) {
				throw new IllegalStateException(worker + " did not stop cleanly: see " + worker.name() + ".log");
			}
		}
	}

	/**
	 * Kills every worker still running.
	 */
	@Override
	public void close() {
		this.workers.forEach(WorkerProcess::close);
	}

}
