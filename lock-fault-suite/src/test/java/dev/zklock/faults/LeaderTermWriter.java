package dev.zklock.faults;

import java.time.Duration;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;

import dev.zklock.leadership.LeadershipEvent;
import dev.zklock.leadership.LeadershipGrantedEvent;
import dev.zklock.zookeeper.LeaderTerm;

import org.springframework.context.ApplicationListener;

/**
 * The thread of a {@link WorkerKind#LEADER leader worker}: a candidate in the election
 * {@value #ELECTION} through the starter's leadership support, which, for as long as each
 * of its terms lasts, increments the election's counter in the {@link FencedStore} with
 * the term's token, over and over. Each term is a hold of the key {@value #ELECTION} in
 * the history: {@code ACQUIRED} with the term's token when the thread takes the term up,
 * then the reads, validity samples ({@link LeaderTerm#isValid()}) and writes of a holder,
 * and {@code RELEASED} once the thread finds the term revoked; so the
 * {@link HistoryChecker} sees two leaders that claim validity at once as two holders of
 * an exclusive lock, and a write with a stale token as a holder's. It carries out the
 * {@code stall} and {@code proceed} {@link WorkerCommands commands} at its next write as
 * a leader.
 * <p>
 * The election's thread only hands terms over and marks them revoked; it does not wait
 * for this thread, whose write may be stalled: a revoked term's lock is released at once,
 * and this thread's late writes carry a token the store refuses.
 */
final class LeaderTermWriter implements ApplicationListener<LeadershipEvent> {

	/** The name of the election, which is the key of its hold in the history. */
	static final String ELECTION = "leader";

	/**
	 * What the {@code STARTED} event of a candidate's thread carries, so that the checker
	 * tells candidates, of which one at a time makes progress, from locking threads.
	 */
	static final String CANDIDATE = "candidate";

	private final FencedStoreClient store;

	private final HistoryRecorder history;

	private final WorkerCommands commands;

	private final BlockingQueue<LeaderTerm> granted = new LinkedBlockingQueue<>();

	LeaderTermWriter(FencedStoreClient store, HistoryRecorder history, WorkerCommands commands) {
		this.store = store;
		this.history = history;
		this.commands = commands;
	}

	@Override
	public void onApplicationEvent(LeadershipEvent event) {
		if (event instanceof LeadershipGrantedEvent) {
			this.granted.add(event.getTerm());
		}
	}

	/**
	 * Starts the thread.
	 * @param name the worker's name, which names its thread
	 * @return the started thread, which ends once the worker stops
	 */
	Thread start(String name) {
		Thread thread = new Thread(this::leadUntilStopped, name + "-leader");
		thread.start();
		return thread;
	}

	private void leadUntilStopped() {
		this.history.record(HistoryEvent.Type.STARTED, "-", 0, CANDIDATE);
		while (!this.commands.stopping()) {
			LeaderTerm term;
			try {
				term = this.granted.poll(100, TimeUnit.MILLISECONDS);
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				break;
			}
			if (term != null) {
				lead(term);
			}
		}
		this.history.record(HistoryEvent.Type.STOPPED, "-", 0, "");
	}

	/**
	 * Writes the counter with the term's token until the term is no longer valid,
	 * sampling its validity before and after each write.
	 */
	private void lead(LeaderTerm term) {
		long token = term.fencingToken();
		this.history.record(HistoryEvent.Type.ACQUIRED, ELECTION, token, "EXCLUSIVE");
		try {
			boolean valid = true;
			while (valid && !this.commands.stopping()) {
				long value = this.store.read(ELECTION, token);
				this.history.record(HistoryEvent.Type.READ, ELECTION, token, Long.toString(value));
				Duration stall = this.commands.takeStall();
				if (stall != null) {
					this.history.record(HistoryEvent.Type.STALL, ELECTION, token, Long.toString(stall.toMillis()));
					stall(stall);
				}
				this.history.sample(ELECTION, token, term::isValid);
				boolean accepted = this.store.write(ELECTION, token, value + 1);
				this.history.record(HistoryEvent.Type.WRITE, ELECTION, token,
						(value + 1) + (accepted ? " ACCEPTED" : " REJECTED"));
				valid = this.history.sample(ELECTION, token, term::isValid);
				pause(Duration.ofMillis(10));
			}
			this.history.record(HistoryEvent.Type.RELEASED, ELECTION, token, "");
		}
		catch (RuntimeException ex) {
			this.history.record(HistoryEvent.Type.FAILED, ELECTION, token, ex.getClass().getSimpleName());
			System.err.println(Thread.currentThread().getName() + " failed as leader: " + ex);
		}
	}

	/** Stalls for a while, or until the test says {@code proceed} or {@code stop}. */
	private void stall(Duration duration) {
		int proceeds = this.commands.proceeds();
		long deadline = System.nanoTime() + duration.toNanos();
		while (this.commands.proceeds() == proceeds && deadline - System.nanoTime() > 0) {
			pause(Duration.ofMillis(20));
		}
	}

	private static void pause(Duration duration) {
		try {
			Thread.sleep(duration.toMillis());
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
		}
	}

}
