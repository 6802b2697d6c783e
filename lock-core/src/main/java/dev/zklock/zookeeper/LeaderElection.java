package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockException;
import dev.zklock.LockManager;
import dev.zklock.LockType;
import dev.zklock.ReleasableLock;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A candidate in a leader election: of all the candidates of the same name, on the same
 * registry root, in any process, one at a time leads, and a {@link LeadershipListener}
 * hears when this one's terms begin and end. The election is the exclusive lock of the
 * key named like it, so the candidates queue fairly, and each term carries the lock's
 * fencing token: greater than every earlier leader's.
 * <p>
 * Once {@link #start() started}, a thread of the election's own waits without bound for
 * the lock ({@link ZooKeeperLockRegistry#acquireDetached detached}), calls
 * {@link LeadershipListener#granted} with the term, and waits until the term ends:
 * <ul>
 * <li>when the candidate {@link #yieldLeadership() yields},
 * <li>when the election is {@link #close() closed},
 * <li>as soon as the lock is doubted or lost ({@link AcquiredLock#whenInvalidated()}):
 * the connection to ZooKeeper is suspended (ZooKeeper has not answered for two thirds of
 * the session timeout), the session ended, or the process was paused for half the session
 * timeout. This is what Curator's {@code LeaderLatch} does on a suspension, and it holds
 * whatever the registry's {@link LostLockPolicy}: ZooKeeper hands the lock to another
 * candidate only after the session timeout, and a leader that waited for the session's
 * end to give up would overlap with the next one for a third of a timeout or more. A
 * leader cut off from ZooKeeper is so revoked within the session timeout, and a paused
 * one as soon as it runs again; its writes meanwhile carry a token lower than the next
 * leader's.
 * </ul>
 * It then calls {@link LeadershipListener#revoked}, releases the lock, and joins the
 * election again, until it is closed. An acquisition that fails (ZooKeeper unreachable)
 * is tried again after {@link #RETRY_DELAY}.
 */
public final class LeaderElection implements AutoCloseable {

	/** How long the election waits before joining again after a failed acquisition. */
	public static final Duration RETRY_DELAY = Duration.ofSeconds(1);

	private static final Logger logger = LoggerFactory.getLogger(LeaderElection.class);

	private static final AtomicLong THREADS = new AtomicLong();

	private final LockManager locks;

	private final String name;

	private final LeadershipListener listener;

	/**
	 * Guards the fields below, which the election's thread and the callers of
	 * {@link #close()} and {@link #yieldLeadership()} share, and the loss detector's
	 * thread through {@link #revoke}.
	 */
	private final ReentrantLock lock = new ReentrantLock();

	/** Signalled when a revocation is asked for or the election closes. */
	private final Condition changed = this.lock.newCondition();

	private @Nullable Thread candidate;

	private boolean closed;

	/**
	 * Whether the election's thread waits for the lock: the one place where
	 * {@link #close()} interrupts it, as callbacks run on it too.
	 */
	private boolean acquiring;

	/** The current term, from just before its grant until its revocation is handled. */
	private @Nullable LeaderTerm term;

	/** Why the current term ends, once something asked it to. */
	private @Nullable String revocation;

	/**
	 * Runs on the election's thread between the acquisition that begins a term and the
	 * term's grant: a seam for tests.
	 */
	private volatile Runnable beforeGranting = () -> {
	};

	/**
	 * Creates a candidate; it joins the election when {@link #start() started}.
	 * @param registry the registry whose locks hold the election, a
	 * {@link ZooKeeperLockRegistry} (any other {@link LockManager}'s locks cannot tell
	 * their loss as it happens: the election then ends at its first acquisition, with an
	 * error logged); it must outlive the election, as its loss detection is what revokes
	 * a term
	 * @param name the election's name, shared by all its candidates: the key of its lock
	 * @param listener told of the terms granted and revoked
	 * @throws IllegalArgumentException if an argument is {@code null}, or the name blank
	 */
	public LeaderElection(LockManager registry, String name, LeadershipListener listener) {
		if (registry == null) {
			throw new IllegalArgumentException("'registry' must not be null");
		}
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("Election name must not be null or blank");
		}
		if (listener == null) {
			throw new IllegalArgumentException("'listener' must not be null");
		}
		this.locks = registry;
		this.name = name;
		this.listener = listener;
	}

	/**
	 * The election's name.
	 * @return the name, which is the key of the election's lock
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Joins the election, on a thread of the election's own. Later calls do nothing.
	 * @throws IllegalStateException if the election was closed
	 */
	public void start() {
		this.lock.lock();
		try {
			if (this.closed) {
				throw new IllegalStateException(
						"Leader election '" + AbbreviatedKey.of(this.name) + "' is closed; create a new one");
			}
			if (this.candidate == null) {
				Thread thread = new Thread(this::run, "zklock-leader-" + THREADS.incrementAndGet());
				thread.setDaemon(true);
				this.candidate = thread;
				thread.start();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The term this candidate leads, if it leads now and the term was not revoked.
	 * @return the current term, or {@code null} if this candidate does not lead
	 */
	public @Nullable LeaderTerm currentTerm() {
		this.lock.lock();
		try {
			return (this.term != null && this.revocation == null) ? this.term : null;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Whether this candidate leads now: it has a term that is still
	 * {@link LeaderTerm#isValid() valid}.
	 * @return whether this candidate leads
	 */
	public boolean isLeader() {
		LeaderTerm current = currentTerm();
		return current != null && current.isValid();
	}

	/**
	 * Gives up the current term, if this candidate leads: the term is revoked, its lock
	 * released once {@link LeadershipListener#revoked} returned, and the candidate joins
	 * the election again, behind the candidates that waited meanwhile.
	 * @return whether this candidate led
	 */
	public boolean yieldLeadership() {
		this.lock.lock();
		try {
			LeaderTerm current = this.term;
			return current != null && revoke(current, "the leader yielded");
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Leaves the election: revokes the current term, if any, and releases its lock once
	 * {@link LeadershipListener#revoked} returned, or stops waiting for the lock. Waits
	 * for the election's thread to end, unless called on it (from a callback). Later
	 * calls do nothing.
	 */
	@Override
	public void close() {
		Thread thread;
		this.lock.lock();
		try {
			if (this.closed) {
				return;
			}
			this.closed = true;
			thread = this.candidate;
			if (this.acquiring && thread != null) {
				thread.interrupt();
			}
			if (this.term != null) {
				revoke(this.term, "the election was closed");
			}
			this.changed.signalAll();
		}
		finally {
			this.lock.unlock();
		}
		if (thread != null && thread != Thread.currentThread()) {
			try {
				thread.join();
			}
			catch (InterruptedException ex) {
				Thread.currentThread().interrupt();
			}
		}
	}

	/**
	 * Asks for the end of a term, if it is the current one and no end was asked for yet;
	 * returns whether this call asked. Called by the loss detector's thread too.
	 */
	private boolean revoke(LeaderTerm revoked, String reason) {
		this.lock.lock();
		try {
			if (this.term != revoked || this.revocation != null) {
				return false;
			}
			revoked.revoke();
			this.revocation = reason;
			this.changed.signalAll();
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	/** The election's thread: one term after the other, until the election closes. */
	private void run() {
		boolean failing = false;
		LeaderTerm granted;
		while ((granted = acquire(failing)) != null || !isClosed()) {
			if (granted == null) {
				failing = true;
				awaitRetry();
				continue;
			}
			failing = false;
			this.beforeGranting.run();
			lead(granted);
		}
	}

	/**
	 * Waits without bound for the election's lock, and makes the term of the lock the
	 * current one unless the election closed meanwhile (in the same step, so that
	 * {@link #close()} either finds the term to revoke or keeps it from beginning);
	 * {@code null} if the election closed or the acquisition failed, which is logged.
	 */
	private @Nullable LeaderTerm acquire(boolean failing) {
		this.lock.lock();
		try {
			if (this.closed) {
				return null;
			}
			this.acquiring = true;
		}
		finally {
			this.lock.unlock();
		}
		ReleasableLock acquired = null;
		try {
			acquired = this.locks.acquireDetached(this.name, LockType.EXCLUSIVE, 1, LockManager.LONGEST_WAIT);
		}
		catch (LockException ex) {
			if (!isClosed()) {
				String message = "Leader election '{}' could not acquire its lock, trying again in {}: {}";
				if (failing) {
					logger.debug(message, AbbreviatedKey.of(this.name), RETRY_DELAY, ex.getMessage());
				}
				else {
					logger.warn(message, AbbreviatedKey.of(this.name), RETRY_DELAY, ex.getMessage());
				}
			}
		}
		this.lock.lock();
		try {
			this.acquiring = false;
			// the interrupt of close(), which may land after the acquisition returned
			Thread.interrupted();
			if (acquired == null) {
				return null;
			}
			if (this.closed) {
				acquired.release();
				return null;
			}
			if (!(acquired instanceof AcquiredLock zooKeeperLock)) {
				acquired.release();
				this.closed = true;
				logger.error(
						"Leader election '{}' ended: its locks ({}) cannot tell when they are lost; "
								+ "elect on a ZooKeeperLockRegistry",
						AbbreviatedKey.of(this.name), acquired.getClass().getName());
				return null;
			}
			this.term = new LeaderTerm(acquired, zooKeeperLock.whenInvalidated());
			this.revocation = null;
			return this.term;
		}
		finally {
			this.lock.unlock();
		}
	}

	private void awaitRetry() {
		this.lock.lock();
		try {
			long remaining = RETRY_DELAY.toNanos();
			while (!this.closed && remaining > 0) {
				remaining = this.changed.awaitNanos(remaining);
			}
		}
		catch (InterruptedException ex) {
			// only close() interrupts this thread, and it closed the election
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * One term, the current one: granted, held until something asks for its end, revoked,
	 * and its lock released. A term whose end was asked for before its grant (the
	 * election closed once the lock was acquired) is neither granted nor revoked: its
	 * lock is released.
	 */
	private void lead(LeaderTerm granted) {
		String endedBeforeGrant = endBeforeGrant();
		if (endedBeforeGrant != null) {
			logger.info("Leader election '{}' ended this candidate's term (fencing token {}) before granting it: {}",
					AbbreviatedKey.of(this.name), granted.fencingToken(), endedBeforeGrant);
			granted.lock().release();
			return;
		}
		granted.invalidation().thenAccept((reason) -> revoke(granted, reason));
		logger.info("Leader election '{}' granted this candidate a term (fencing token {})",
				AbbreviatedKey.of(this.name), granted.fencingToken());
		try {
			this.listener.granted(granted);
		}
		catch (RuntimeException ex) {
			logger.error("The granted callback of leader election '{}' failed; yielding", AbbreviatedKey.of(this.name),
					ex);
			revoke(granted, "the granted callback failed: " + ex);
		}
		String reason;
		this.lock.lock();
		try {
			while (this.revocation == null) {
				this.changed.awaitUninterruptibly();
			}
			reason = this.revocation;
		}
		finally {
			this.lock.unlock();
		}
		logger.info("Leader election '{}' revoked this candidate's term (fencing token {}): {}",
				AbbreviatedKey.of(this.name), granted.fencingToken(), reason);
		try {
			this.listener.revoked(granted, reason);
		}
		catch (RuntimeException ex) {
			logger.error("The revoked callback of leader election '{}' failed", AbbreviatedKey.of(this.name), ex);
		}
		finally {
			this.lock.lock();
			try {
				this.term = null;
				this.revocation = null;
			}
			finally {
				this.lock.unlock();
			}
			granted.lock().release();
		}
	}

	/**
	 * Why the current term ended before its grant, clearing it, or {@code null} if no end
	 * was asked for.
	 */
	private @Nullable String endBeforeGrant() {
		this.lock.lock();
		try {
			String reason = this.revocation;
			if (reason != null) {
				this.term = null;
				this.revocation = null;
			}
			return reason;
		}
		finally {
			this.lock.unlock();
		}
	}

	void beforeGranting(Runnable hook) {
		this.beforeGranting = hook;
	}

	boolean isClosed() {
		this.lock.lock();
		try {
			return this.closed;
		}
		finally {
			this.lock.unlock();
		}
	}

	@Override
	public String toString() {
		return "LeaderElection[name=" + AbbreviatedKey.of(this.name) + "]";
	}

}
