package dev.zklock.faults;

import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import org.apache.curator.framework.CuratorFramework;

/**
 * The commands a {@link FaultWorker} reads as lines on its standard input, each recorded
 * in its history, and those its {@link LockingThreads locking threads} have yet to carry
 * out.
 * <p>
 * {@code stall MILLIS} (the next thread to take a lock sleeps that long between reading
 * and writing the store, or until {@code proceed}), {@code proceed} (ends the stalls
 * under way), {@code proceed-once-valid} (ends them too, but each stalled holder first
 * waits a while for its lock to read as valid, as a holder whose lock was uncertain waits
 * for ZooKeeper to confirm it one round trip after a reconnection), {@code write-late}
 * (the next thread to take a lock reads the store under it, releases it, and writes what
 * it read once a later holder has written, as a write delayed in the network would
 * arrive; a semaphore worker, whose holders do not write, records it as a failure),
 * {@code skip-lock} (the next thread runs its critical section once without the most
 * exclusive lock of its worker's kind, reusing the token of its last hold and believing
 * it valid, as a caller that forgot to lock would), {@code expire-session} (expire the
 * ZooKeeper session on the client side, as ZooKeeper would after a partition) and
 * {@code stop} (finish the current iterations and exit; the end of the input does the
 * same).
 */
final class WorkerCommands {

	private final HistoryRecorder history;

	private final AtomicReference<Duration> pendingStall = new AtomicReference<>();

	private final AtomicBoolean pendingLateWrite = new AtomicBoolean();

	private final AtomicBoolean pendingSkippedLock = new AtomicBoolean();

	private final AtomicInteger proceeds = new AtomicInteger();

	private volatile boolean proceedsOnceValid;

	private volatile boolean stopping;

	WorkerCommands(HistoryRecorder history) {
		this.history = history;
	}

	/**
	 * Reads commands from standard input until {@code stop} or its end.
	 * @param curator the worker's ZooKeeper client, whose session {@code expire-session}
	 * expires
	 */
	void obey(CuratorFramework curator) throws Exception {
		BufferedReader input = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
		String command;
		while ((command = input.readLine()) != null && !command.equals("stop")) {
			this.history.record(HistoryEvent.Type.COMMAND, "-", 0, command);
			if (command.equals("expire-session")) {
				curator.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
			}
			else if (command.equals("write-late")) {
				this.pendingLateWrite.set(true);
			}
			else if (command.equals("skip-lock")) {
				this.pendingSkippedLock.set(true);
			}
			else if (command.equals("proceed") || command.equals("proceed-once-valid")) {
				this.proceedsOnceValid = command.equals("proceed-once-valid");
				this.proceeds.incrementAndGet();
			}
			else if (command.startsWith("stall ")) {
				this.pendingStall.set(Duration.ofMillis(Long.parseLong(command.substring(6))));
			}
		}
		this.history.record(HistoryEvent.Type.COMMAND, "-", 0, "stop");
		this.stopping = true;
		this.proceeds.incrementAndGet();
	}

	/**
	 * Whether the worker was told to stop.
	 * @return whether it stops
	 */
	boolean stopping() {
		return this.stopping;
	}

	/**
	 * Takes the pending {@code stall}, if there is one.
	 * @return how long to stall, or {@code null}
	 */
	Duration takeStall() {
		return this.pendingStall.getAndSet(null);
	}

	/**
	 * Takes the pending {@code write-late}, if there is one.
	 * @return whether one was pending
	 */
	boolean takeLateWrite() {
		return this.pendingLateWrite.compareAndSet(true, false);
	}

	/**
	 * Takes the pending {@code skip-lock}, if there is one.
	 * @return whether one was pending
	 */
	boolean takeSkippedLock() {
		return this.pendingSkippedLock.compareAndSet(true, false);
	}

	/**
	 * How many times the worker was told to {@code proceed} (or to stop) so far: a stall
	 * ends when this changes.
	 * @return the number of times
	 */
	int proceeds() {
		return this.proceeds.get();
	}

	/**
	 * Whether the last {@code proceed} was {@code proceed-once-valid}.
	 * @return whether stalled holders wait for their lock to read as valid
	 */
	boolean proceedsOnceValid() {
		return this.proceedsOnceValid;
	}

}
