package dev.zklock.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.BooleanSupplier;

import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.LockType;

/**
 * The locking threads of a {@link FaultWorker}: each takes the locks of its
 * {@link WorkerKind kind} until the worker stops, recording every step in its history,
 * and carries out the {@link WorkerCommands commands} that concern its next hold. Under
 * an exclusive or a write lock, a thread increments the key's counter in the
 * {@link FencedStore}, reading it with its token (which raises the key's fence) and
 * writing it with the token; under a read lock it reads the counter without a token,
 * since readers hold together and their tokens are not ordered against each other (the
 * JDBC fence, likewise, is for writers); a semaphore's holders, who hold together, leave
 * the store alone. Every holder asks whether its lock is valid before and after the point
 * where a writer writes.
 */
final class LockingThreads {

	/** How long a thread stalls when it skips the lock, so that real holds overlap it. */
	private static final Duration SKIPPED_LOCK_STALL = Duration.ofMillis(300);

	/**
	 * How long a holder told {@code proceed-once-valid} waits for its lock to read as
	 * valid: far longer than the round trip that confirms it after a reconnection.
	 */
	private static final Duration VALIDITY_WAIT = Duration.ofSeconds(10);

	private final LockTemplate lockTemplate;

	private final FencedStoreClient store;

	private final HistoryRecorder history;

	private final WorkerCommands commands;

	private final WorkerKind kind;

	private final Duration waitTime;

	private final boolean ignoresLoss;

	private final ThreadLocal<Long> lastToken = ThreadLocal.withInitial(() -> 1L);

	/**
	 * Creates the locking threads of a worker; {@link #start(String, int)} starts them.
	 * @param lockTemplate the starter's template
	 * @param store the fenced store
	 * @param history the worker's history
	 * @param commands the commands the worker received
	 * @param kind the locks to take
	 * @param waitTime the wait time of each lock
	 * @param ignoresLoss whether every validity sample is {@code true}, without asking
	 */
	LockingThreads(LockTemplate lockTemplate, FencedStoreClient store, HistoryRecorder history, WorkerCommands commands,
			WorkerKind kind, Duration waitTime, boolean ignoresLoss) {
		this.lockTemplate = lockTemplate;
		this.store = store;
		this.history = history;
		this.commands = commands;
		this.kind = kind;
		this.waitTime = waitTime;
		this.ignoresLoss = ignoresLoss;
	}

	/**
	 * Starts the threads.
	 * @param name the worker's name, which names its threads
	 * @param count the number of threads
	 * @return the started threads, which end once the worker stops
	 */
	List<Thread> start(String name, int count) {
		List<Thread> threads = new ArrayList<>();
		for (int i = 0; i < count; i++) {
			Thread thread = new Thread(this::lockUntilStopped, name + "-t" + i);
			thread.start();
			threads.add(thread);
		}
		return threads;
	}

	private void lockUntilStopped() {
		this.history.record(HistoryEvent.Type.STARTED, "-", 0, "");
		while (!this.commands.stopping()) {
			LockRequest request = this.kind.next(ThreadLocalRandom.current()).withWaitTime(this.waitTime);
			String key = request.key();
			try {
				if (this.commands.takeLateWrite()) {
					writeLate(this.kind.strongest(key).withWaitTime(this.waitTime));
				}
				else if (this.commands.takeSkippedLock()) {
					holdWithoutLock(this.kind.strongest(key));
				}
				else {
					long token = this.lockTemplate.execute(request,
							(lock) -> hold(request, lock.fencingToken(), lock::isValid, this.commands.takeStall()));
					this.lastToken.set(token);
					this.history.record(HistoryEvent.Type.RELEASED, key, token, "");
				}
			}
			catch (RuntimeException ex) {
				// LockException and its subtypes above all; the store's failures too
				this.history.record(HistoryEvent.Type.FAILED, key, 0, ex.getClass().getSimpleName());
				System.err.println(Thread.currentThread().getName() + " failed on '" + key + "': " + ex);
			}
			pause(Duration.ofMillis(10));
		}
		this.history.record(HistoryEvent.Type.STOPPED, "-", 0, "");
	}

	/**
	 * The critical section: read the key's counter (with the token, raising the key's
	 * fence, if the holder writes), stall if told to, write it back incremented with the
	 * hold's fencing token if the holder writes, and ask whether the lock is held just
	 * before the write and just after it, so that the history holds what the holder
	 * believed at each write. A semaphore's holder only stalls and asks.
	 */
	private long hold(LockRequest lock, long token, BooleanSupplier isValid, Duration stall) {
		String key = lock.key();
		boolean writes = WorkerKind.writes(lock.type());
		this.history.record(HistoryEvent.Type.ACQUIRED, key, token, WorkerKind.describe(lock));
		long value = 0;
		if (lock.type() != LockType.SEMAPHORE) {
			value = writes ? this.store.read(key, token) : this.store.read(key);
			this.history.record(HistoryEvent.Type.READ, key, token, Long.toString(value));
		}
		if (stall != null) {
			this.history.record(HistoryEvent.Type.STALL, key, token, Long.toString(stall.toMillis()));
			stall(stall, isValid);
		}
		else {
			pause(Duration.ofMillis(5));
		}
		sample(key, token, isValid);
		if (writes) {
			boolean accepted = this.store.write(key, token, value + 1);
			this.history.record(HistoryEvent.Type.WRITE, key, token,
					(value + 1) + (accepted ? " ACCEPTED" : " REJECTED"));
		}
		sample(key, token, isValid);
		return token;
	}

	private void sample(String key, long token, BooleanSupplier isValid) {
		this.history.sample(key, token, this.ignoresLoss ? () -> true : isValid);
	}

	/**
	 * The critical section run without the lock, by a caller that believes it holds it
	 * with the token of its last hold.
	 */
	private void holdWithoutLock(LockRequest lock) {
		long token = this.lastToken.get();
		hold(lock, token, () -> true, SKIPPED_LOCK_STALL);
		this.history.record(HistoryEvent.Type.RELEASED, lock.key(), token, "without the lock");
	}

	/**
	 * Reads the key's counter under a lock that writes, releases the lock, and once a
	 * later holder has written the counter, writes what it read, incremented, with its
	 * own token: the store must refuse it.
	 */
	private void writeLate(LockRequest lock) {
		if (!WorkerKind.writes(lock.type())) {
			throw new IllegalStateException("A " + lock.type() + " holder does not write");
		}
		String key = lock.key();
		long[] tokenAndValue = this.lockTemplate.execute(lock, (held) -> {
			this.history.record(HistoryEvent.Type.ACQUIRED, key, held.fencingToken(), WorkerKind.describe(lock));
			long value = this.store.read(key, held.fencingToken());
			this.history.record(HistoryEvent.Type.READ, key, held.fencingToken(), Long.toString(value));
			return new long[] { held.fencingToken(), value };
		});
		long token = tokenAndValue[0];
		long value = tokenAndValue[1];
		this.history.record(HistoryEvent.Type.RELEASED, key, token, "");
		long deadline = System.nanoTime() + Duration.ofSeconds(30).toNanos();
		while (this.store.read(key) == value && System.nanoTime() - deadline < 0) {
			pause(Duration.ofMillis(5));
		}
		boolean accepted = this.store.write(key, token, value + 1);
		this.history.record(HistoryEvent.Type.LATE_WRITE, key, token,
				(value + 1) + (accepted ? " ACCEPTED" : " REJECTED"));
	}

	/**
	 * Stalls for a while, or until the test says {@code proceed} or {@code stop}; after
	 * {@code proceed-once-valid}, then waits up to {@link #VALIDITY_WAIT} for the lock to
	 * read as valid.
	 */
	private void stall(Duration duration, BooleanSupplier isValid) {
		int proceeds = this.commands.proceeds();
		long deadline = System.nanoTime() + duration.toNanos();
		while (this.commands.proceeds() == proceeds && deadline - System.nanoTime() > 0) {
			pause(Duration.ofMillis(Math.min(20, Math.max(1, (deadline - System.nanoTime()) / 1_000_000))));
		}
		if (this.commands.proceeds() != proceeds && this.commands.proceedsOnceValid()) {
			long validityDeadline = System.nanoTime() + VALIDITY_WAIT.toNanos();
			while (!isValid.getAsBoolean() && validityDeadline - System.nanoTime() > 0) {
				pause(Duration.ofMillis(5));
			}
		}
	}

	private static void pause(Duration duration) {
		long deadline = System.nanoTime() + duration.toNanos();
		long remaining;
		while ((remaining = deadline - System.nanoTime()) > 0) {
			try {
				Thread.sleep(Math.max(1, remaining / 1_000_000));
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
				return;
			}
		}
	}

}
