package dev.zklock.zookeeper;

import java.util.concurrent.TimeUnit;

import org.jspecify.annotations.Nullable;

/**
 * The in-process state of one key's lock, as the threads of one process and the events
 * from ZooKeeper drive it, for {@link KeyStateModelCheckTests}' model checker. ZooKeeper
 * itself is the {@link SimulatedLockQueue} given to the implementation: a node's turn
 * comes when every earlier node is deleted.
 * <p>
 * An implementation adapts one version of the key's state (the hold counts, the re-entry
 * mapping, the cohort of waiting threads and its hand-offs) and drives it the way the
 * registry does, with no ZooKeeper I/O other than the simulated queue's.
 *
 * @param <H> the implementation's type of a hold
 */
interface KeyStateModel<H> {

	/**
	 * How long an acquisition that waits may wait: a millisecond, which never passes
	 * under the model checker's frozen clock ({@link System#nanoTime()} stands still);
	 * Lincheck 3.7 hangs on timed waits of an hour or without bound.
	 */
	long WAIT_NANOS = TimeUnit.MILLISECONDS.toNanos(1);

	/**
	 * The owner acquires the key: it re-enters its own hold, if it has one that takes
	 * re-entries, or else waits for its turn (a node handed over by another thread of
	 * this process, or a node of its own whose turn came in the simulated queue). The
	 * calling thread acts for the owner, as the registry's callers act for the owner they
	 * name.
	 * @param owner the thread that the acquisition is for
	 * @param kind the kind of lock: exclusive, read (shared) or a semaphore's permit
	 * @param wait whether to wait for a turn; {@code false} times out at once where the
	 * acquisition would have to wait (frozen time under the model checker never lets a
	 * later deadline pass)
	 * @return the acquisition, or {@code null} if it timed out, or a re-entry was refused
	 * because the hold was lost
	 * @throws InterruptedException if the thread was interrupted while it waited
	 */
	@Nullable Acquisition<H> acquire(Thread owner, LockNodeKind kind, boolean wait) throws InterruptedException;

	/**
	 * The holding thread releases one acquisition of its hold.
	 * @param hold the hold
	 * @return whether that ended the hold (its node handed over or deleted)
	 */
	boolean release(H hold);

	/**
	 * The holding thread releases one acquisition of its hold after a delay
	 * (hold-at-least): the thread is done with it now, and
	 * {@link #releaseDelayed(Object)} ends it later on the scheduler's thread.
	 * @param hold the hold
	 */
	void releaseLater(H hold);

	/**
	 * The scheduler ends a delayed release.
	 * @param hold the hold
	 * @return whether that ended the hold
	 */
	boolean releaseDelayed(H hold);

	/**
	 * A doubt arrives (a pause of the process that may have outlasted the session) about
	 * every hold registered now, begun or still checking its turn: their nodes take no
	 * more holders, and turns handed over or shown before the doubt no longer stand.
	 */
	void doubt();

	/**
	 * ZooKeeper confirms that the session lasted: the holds uncertain when it was asked
	 * become certain again, unless a doubt came since.
	 */
	void confirm();

	/**
	 * Every hold registered now is declared lost. Their nodes stay in the simulated queue
	 * until their holders release them (a loss declared while the session may still
	 * live).
	 */
	void lose();

	/**
	 * The acquisitions that the hold still counts, delayed ones included.
	 * @param hold the hold
	 * @return the count
	 */
	int acquisitions(H hold);

	/**
	 * An acquisition that succeeded.
	 *
	 * @param <H> the type of a hold
	 * @param hold the hold it took or re-entered
	 * @param fencingToken the hold's fencing token
	 * @param reentered whether it re-entered a hold rather than began one
	 */
	record Acquisition<H>(H hold, long fencingToken, boolean reentered) {

	}

}
