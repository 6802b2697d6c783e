package dev.zklock.faults;

import java.util.List;
import java.util.random.RandomGenerator;

import dev.zklock.LockRequest;
import dev.zklock.LockType;

/**
 * The locks a {@link FaultWorker}'s threads take, each kind on keys of its own, so that
 * workers of different kinds can run side by side: exclusive locks, the read and write
 * locks of read/write keys (each hold one or the other at random), permits of a
 * semaphore, or the lock of a leader election, which a worker's one
 * {@link LeaderTermWriter thread} holds for its terms.
 */
enum WorkerKind {

	/** Exclusive locks of two keys. */
	EXCLUSIVE(List.of("alpha", "beta")),

	/**
	 * The read or the write lock, at random, of two keys: two, so that a reader or a
	 * writer stalled on one key leaves the other to the rest.
	 */
	READ_WRITE(List.of("gamma", "delta")),

	/** A permit of a semaphore of {@value #PERMITS} permits. */
	SEMAPHORE(List.of("pool")),

	/**
	 * A candidate in the election {@value LeaderTermWriter#ELECTION}, whose one thread
	 * writes the store for as long as each of its terms lasts: of all the workers of this
	 * kind, one at a time leads.
	 */
	LEADER(List.of(LeaderTermWriter.ELECTION));

	/**
	 * The permits of the semaphore: fewer than the threads of two semaphore workers, so
	 * that they contend for them.
	 */
	static final int PERMITS = 2;

	private final List<String> keys;

	WorkerKind(List<String> keys) {
		this.keys = keys;
	}

	/**
	 * The keys the worker's threads lock.
	 * @return the keys
	 */
	List<String> keys() {
		return this.keys;
	}

	/**
	 * The next lock a thread takes: one of the keys, picked at random, and for
	 * {@link #READ_WRITE} its read or its write lock, picked at random too.
	 * @param random the thread's random numbers
	 * @return the request, without a wait time
	 */
	LockRequest next(RandomGenerator random) {
		String key = this.keys.get(random.nextInt(this.keys.size()));
		return (this == READ_WRITE && random.nextBoolean()) ? LockRequest.read(key) : strongest(key);
	}

	/**
	 * The most exclusive lock of a key that a worker of this kind takes: the exclusive
	 * lock, the write lock, or a permit of the semaphore.
	 * @param key the key
	 * @return the request, without a wait time
	 */
	LockRequest strongest(String key) {
		return switch (this) {
			case EXCLUSIVE, LEADER -> LockRequest.exclusive(key);
			case READ_WRITE -> LockRequest.write(key);
			case SEMAPHORE -> LockRequest.semaphore(key, PERMITS);
		};
	}

	/**
	 * The threads of a worker of this kind: one for a {@link #LEADER}, a candidate in one
	 * election, and as many as asked for otherwise.
	 * @param threads the threads of a worker that locks
	 * @return the number of threads
	 */
	int threads(int threads) {
		return (this == LEADER) ? 1 : threads;
	}

	/**
	 * Whether a holder of a lock of this type writes the fenced store: exclusive holders
	 * and writers do; readers only read it, and a semaphore's holders, which hold
	 * together, do not touch it.
	 * @param type the lock's type
	 * @return whether its holder writes
	 */
	static boolean writes(LockType type) {
		return type == LockType.EXCLUSIVE || type == LockType.WRITE;
	}

	/**
	 * What a hold's {@code ACQUIRED} event says of its lock: the type, and the permits of
	 * a semaphore, such as {@code SEMAPHORE 2}.
	 * @param request the lock's request
	 * @return the description
	 */
	static String describe(LockRequest request) {
		return (request.type() == LockType.SEMAPHORE) ? request.type() + " " + request.permits()
				: request.type().name();
	}

}
