package dev.zklock.zookeeper;

import java.time.Instant;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import dev.zklock.AbbreviatedKey;
import dev.zklock.zookeeper.LockNode;
import org.jspecify.annotations.Nullable;

/**
 * The state of one key's lock in this process, the state machine of its holds and waits:
 * which thread holds which node how many times, which releases are delayed, which threads
 * wait for a turn, which node passes to the next of them, and which nodes were doubted or
 * lost. One lock guards it, and it never talks to ZooKeeper: each event is one method
 * that changes the state and returns what the caller must do outside it (queue a node,
 * delete one, ask who queues behind one). {@link LockKeyDriver} drives it, with a
 * {@link LockQueue} for the ZooKeeper side.
 * <p>
 * The threads of this process that want one kind of lock of the key form a cohort: one at
 * a time queues in ZooKeeper (the leader), the others wait here in order, and a released
 * node passes to the next with no ZooKeeper round trip, as far as the
 * {@link HandOffPolicy} allows. Exclusive cohorts pass the node from holder to holder;
 * shared (read) cohorts let every waiter join the held node. A node whose bound is
 * reached, or whose lock became uncertain, takes no more holders: the last holder
 * releases it to ZooKeeper, and the next waiter leads a new turn, behind the processes
 * that queued meanwhile. A read node that takes no more readers never keeps the next
 * reader waiting for its readers to leave: the reader leads a new read node at once,
 * which queues behind whatever queued meanwhile. The bounds apply only while another node
 * may queue behind the cohort's: once a thread waits, ZooKeeper is asked once per node
 * whether one does, and a reader waits for that answer only. A node whose lock was lost
 * leaves the cohort at once: its holders keep it until they leave, and the next waiter
 * leads a new turn, so a lost holder that never leaves keeps no thread of this process
 * waiting longer than one of another process.
 * <p>
 * Invariants, kept by every event under {@link #lock}, each with the one guard it rests
 * on:
 * <ul>
 * <li>{@link #holds} maps a thread only to a hold that has begun, has not ended, and that
 * its thread has not left: so a re-entry never enters an ended hold ({@code forget},
 * called by the event that ends the thread's last own acquisition; {@code begin} maps
 * only a hold not declared lost);</li>
 * <li>a hold's {@code acquisitions >= delayedExits >= 0}, and {@code acquisitions} is
 * {@code 0} exactly when the hold ended, which happens once
 * ({@code requireThreadAcquisition} and {@code exitDelayed}'s check);</li>
 * <li>a cohort's {@code holders} counts the holds of its node that have not been given
 * back, and an exclusive cohort's node has at most one ({@code acceptsHolder});</li>
 * <li>a node whose hold may have been lost passes to no other holder ({@code leave}
 * retires it; the taker's check of the doubt count in {@link LockKeyDriver} would refuse
 * it too, one wasted turn later);</li>
 * <li>a cohort with waiters has a node that takes no more holders, or a leader (every
 * event that changes the node, its bounds or its leader ends with {@code passOn}).</li>
 * </ul>
 */
final class LockKey {

	/** What an event of a hold's count leaves to do. */
	enum Change {

		/** The holding thread still holds the lock. */
		STILL_HELD,

		/**
		 * The thread is done with the hold, which lasts until its delayed releases end.
		 */
		THREAD_LEFT,

		/** The last acquisition was released: give the node back ({@link #giveBack}). */
		ENDED

	}

	final String key;

	private final ReentrantLock lock = new ReentrantLock();

	private final @Nullable Cohort exclusive;

	private final @Nullable Cohort shared;

	/** The hold that each thread's next acquisitions of the key re-enter. */
	private final Map<Thread, Hold> holds = new HashMap<>();

	/**
	 * The acquisitions that use this key, holding or waiting; counted only within the
	 * registry's atomic updates of the key's mapping, which serialize them.
	 */
	private int users;

	LockKey(String key, HandOffPolicy handOffPolicy) {
		this.key = key;
		this.exclusive = handOffPolicy.enabled() ? new Cohort(false, handOffPolicy) : null;
		this.shared = handOffPolicy.enabled() ? new Cohort(true, handOffPolicy) : null;
	}

	void addUser() {
		this.users++;
	}

	boolean removeUser() {
		return --this.users > 0;
	}

	/**
	 * Event: a thread acquires the key again, returning the hold it entered, or
	 * {@code null} if the acquisition takes a hold of its own. A thread's acquisitions of
	 * the key's exclusive, read or write lock share one hold; semaphore permits never do.
	 * Throws {@link IllegalStateException} if the owner holds the read lock and asks for
	 * the write lock, which would wait for itself.
	 */
	@Nullable Hold reenter(LockNodeKind kind, @Nullable Thread owner) {
		if (owner == null || !sharesHolds(kind)) {
			return null;
		}
		this.lock.lock();
		try {
			Hold current = this.holds.get(owner);
			if (current == null) {
				return null;
			}
			if (kind == LockNodeKind.EXCLUSIVE && current.kind() == LockNodeKind.SHARED) {
				throw new IllegalStateException("The current thread holds the read lock of '"
						+ AbbreviatedKey.of(this.key) + "' and asks for its exclusive (write) lock: that upgrade "
						+ "would wait for itself; release the read lock first");
			}
			current.acquisitions++;
			return current;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Event: a thread asks for a turn, to hold the cohort's node or to lead (queue a node
	 * in ZooKeeper); it then sends what {@link #watchToSend} asks for and waits with
	 * {@link #await}. Without a cohort (hand-offs off, or semaphore permits, which are
	 * counted by nodes) every thread leads.
	 */
	Waiter arrive(LockNodeKind kind) {
		Cohort cohort = cohortOf(kind);
		if (cohort == null) {
			return new Waiter(null, null, Turn.LEAD);
		}
		this.lock.lock();
		try {
			Turn turn = cohort.waiters.isEmpty() ? cohort.nextTurn() : null;
			Waiter waiter = new Waiter(cohort, this.lock.newCondition(), turn);
			if (turn == null) {
				cohort.waiters.addLast(waiter);
			}
			return waiter;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Waits for a waiter's turn, or returns {@code null} once the deadline passes. A turn
	 * given while the thread is interrupted is still taken, with the interrupt flag set;
	 * a waiter whose wait ends without its turn leaves the cohort.
	 */
	@Nullable Turn await(Waiter waiter, long deadline) throws InterruptedException {
		if (waiter.cohort == null) {
			return waiter.turn;
		}
		this.lock.lock();
		try {
			while (waiter.turn == null) {
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0) {
					waiter.leave();
					return null;
				}
				try {
					waiter.awaitTurn(remaining);
				}
				catch (InterruptedException ex) {
					if (waiter.turn == null) {
						waiter.leave();
						throw ex;
					}
					Thread.currentThread().interrupt();
				}
			}
			return waiter.turn;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Whether threads wait for a turn at a kind of lock: a node released now would pass
	 * to one of them.
	 */
	boolean hasWaiters(LockNodeKind kind) {
		Cohort cohort = cohortOf(kind);
		if (cohort == null) {
			return false;
		}
		this.lock.lock();
		try {
			return !cohort.waiters.isEmpty();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Event: returns the cohort's node if ZooKeeper is to be asked whether another node
	 * queues behind it (the answer goes to {@link #othersQueued}), else {@code null}. It
	 * is asked once per node, and only while a thread waits: a node that no thread waits
	 * for is released whoever queues behind it.
	 */
	@Nullable LockNode watchToSend(LockNodeKind kind) {
		Cohort cohort = cohortOf(kind);
		if (cohort == null) {
			return null;
		}
		this.lock.lock();
		try {
			if (cohort.node == null || cohort.askedWhoQueues || cohort.waiters.isEmpty()) {
				return null;
			}
			cohort.askedWhoQueues = true;
			return cohort.node;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Event: ZooKeeper told whether another node queues behind a node; once one does, it
	 * does until the node is released.
	 */
	void othersQueued(LockNode behindOf, boolean queued) {
		Cohort cohort = cohortOf(behindOf.kind());
		if (cohort == null) {
			return;
		}
		this.lock.lock();
		try {
			if (behindOf.equals(cohort.node) && (queued || cohort.othersQueued == null)) {
				cohort.othersQueued = queued;
				cohort.passOn();
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Event: the leader's turn failed or timed out; the next waiter leads. */
	void leadFailed(LockNodeKind kind) {
		Cohort cohort = cohortOf(kind);
		if (cohort == null) {
			return;
		}
		this.lock.lock();
		try {
			cohort.leadFailed();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Event: a hold's node was found held in the client's current session, once its turn
	 * came (in ZooKeeper for a leader, or from the cohort). Unless the lock was declared
	 * lost meanwhile, the hold begins: a leader's node becomes the cohort's (shared
	 * cohorts let their waiters join it), and the owner's next acquisitions re-enter the
	 * hold. {@code checkedAt} is the {@link LockLossDetector#doubts() doubt count} read
	 * before the node was found held.
	 * @return whether the hold began; if not, give it up ({@link #giveUp})
	 */
	boolean begin(Hold hold, boolean leads, long checkedAt) {
		this.lock.lock();
		try {
			if (hold.lossReason != null) {
				return false;
			}
			hold.begun = true;
			Cohort cohort = cohortOf(hold.kind());
			if (cohort != null && leads) {
				cohort.led(hold.node, checkedAt);
			}
			if (hold.holder != null && sharesHolds(hold.kind())) {
				this.holds.put(hold.holder, hold);
			}
			return true;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Event: a new hold did not begin, as its node was in doubt before it was held. A
	 * leader's cohort is led by its next waiter; a node handed over leaves its cohort.
	 * @return the node to delete in ZooKeeper, or {@code null} if other holders keep it
	 */
	@Nullable LockNode giveUp(Hold hold, boolean leads) {
		Cohort cohort = cohortOf(hold.kind());
		if (cohort == null) {
			return hold.node;
		}
		this.lock.lock();
		try {
			hold.givenBack = true;
			if (leads) {
				cohort.leadFailed();
				return hold.node;
			}
			return cohort.leave(hold.node, false, 0);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Event: the holding thread releases one acquisition of a hold; it fails if the
	 * thread has no acquisition left to release.
	 */
	Change exit(Hold hold) {
		this.lock.lock();
		try {
			requireThreadAcquisition(hold);
			hold.acquisitions--;
			return (hold.acquisitions == 0) ? end(hold) : leftIfOnlyDelayed(hold);
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Event: the holding thread releases one acquisition later ({@link #exitDelayed}):
	 * the acquisition keeps the lock, but not for its thread. It fails if the thread has
	 * no acquisition left to release.
	 */
	Change delayExit(Hold hold) {
		this.lock.lock();
		try {
			requireThreadAcquisition(hold);
			hold.delayedExits++;
			return leftIfOnlyDelayed(hold);
		}
		finally {
			this.lock.unlock();
		}
	}

	/** Event: a delayed release ends; it fails if none is left to end. */
	Change exitDelayed(Hold hold) {
		this.lock.lock();
		try {
			if (hold.delayedExits == 0) {
				throw new IllegalStateException("No delayed release of " + hold + " is left to end");
			}
			hold.delayedExits--;
			hold.acquisitions--;
			return (hold.acquisitions == 0) ? end(hold) : Change.STILL_HELD;
		}
		finally {
			this.lock.unlock();
		}
	}

	private void requireThreadAcquisition(Hold hold) {
		if (hold.acquisitions == hold.delayedExits) {
			throw new IllegalStateException("No acquisition of " + hold + " by its thread is left to release");
		}
	}

	private Change end(Hold hold) {
		forget(hold);
		return Change.ENDED;
	}

	private Change leftIfOnlyDelayed(Hold hold) {
		if (hold.acquisitions == hold.delayedExits) {
			forget(hold);
			return Change.THREAD_LEFT;
		}
		return Change.STILL_HELD;
	}

	/**
	 * The hold's thread is done with it: its next acquisitions no longer find it, and the
	 * lost-lock policy no longer interrupts it.
	 */
	private void forget(Hold hold) {
		hold.threadLeft = true;
		if (hold.holder != null) {
			this.holds.remove(hold.holder, hold);
		}
	}

	/**
	 * Event: gives back the node of a hold that {@link Change#ENDED ended}, unregistered
	 * from the loss detector: it passes to a waiting thread of this process, or stays
	 * with the other holders of a shared node, or is to be deleted. {@code handOff} is
	 * {@code false} when its lock may have been lost; {@code checkedAt} is the
	 * {@link LockLossDetector#doubts() doubt count} read before the hold's lock was found
	 * held, for the check that passing it on needs.
	 * @return the node to delete in ZooKeeper, or {@code null} if it stays held
	 */
	@Nullable LockNode giveBack(Hold hold, boolean handOff, long checkedAt) {
		Cohort cohort = cohortOf(hold.kind());
		if (cohort == null) {
			return hold.node;
		}
		this.lock.lock();
		try {
			hold.givenBack = true;
			return cohort.leave(hold.node, handOff, checkedAt);
		}
		finally {
			this.lock.unlock();
		}
	}

	/** The cohort of a kind of lock, or {@code null} if each acquisition queues alone. */
	private @Nullable Cohort cohortOf(LockNodeKind kind) {
		if (kind == LockNodeKind.EXCLUSIVE) {
			return this.exclusive;
		}
		return (kind == LockNodeKind.SHARED) ? this.shared : null;
	}

	private static boolean sharesHolds(LockNodeKind kind) {
		return !(kind instanceof LockNodeKind.Permit);
	}

	/**
	 * A thread's turn at the key: at a node, or to lead.
	 *
	 * @param node the node the thread holds from now on; {@code null} for the turn to
	 * lead, that is to queue for a node in ZooKeeper
	 * @param handOff how many holders had the node before this one ({@code 0} for the
	 * leader)
	 * @param checkedAt for a node handed over, the {@link LockLossDetector#doubts() doubt
	 * count} read before a holder of this process last found it held; for a node whose
	 * turn ZooKeeper showed, the {@link LockLossDetector#pauses() pause count} read
	 * before ZooKeeper was asked: the turn stands only if nothing was counted since
	 */
	record Turn(@Nullable LockNode node, int handOff, long checkedAt) {

		static final Turn LEAD = new Turn(null, 0, 0);

		boolean leads() {
			return this.node == null;
		}

	}

	/**
	 * A thread's place among the threads that wait for a turn at the key, used under the
	 * key's lock, whose condition it waits on; without a cohort it leads from the start.
	 */
	static final class Waiter {

		private final @Nullable Cohort cohort;

		private final @Nullable Condition turnCame;

		private @Nullable Turn turn;

		private Waiter(@Nullable Cohort cohort, @Nullable Condition turnCame, @Nullable Turn turn) {
			this.cohort = cohort;
			this.turnCame = turnCame;
			this.turn = turn;
		}

		private void awaitTurn(long remainingNanos) throws InterruptedException {
			if (this.turnCame != null) {
				this.turnCame.awaitNanos(remainingNanos);
			}
		}

		private void give(Turn turn) {
			this.turn = turn;
			if (this.turnCame != null) {
				this.turnCame.signal();
			}
		}

		private void leave() {
			if (this.cohort != null) {
				this.cohort.waiters.remove(this);
			}
		}

	}

	/**
	 * One thread's hold of the key's lock, from its outermost acquisition to the release
	 * of its last one; reentrant acquisitions share it. It knows its node and the session
	 * that owns it, and whether the lock was lost or became uncertain since. Its count
	 * and its loss are guarded by the key's lock; its doubt is one atomic word, which the
	 * {@link LockLossDetector} reads and changes from ZooKeeper's event thread.
	 */
	static final class Hold {

		private final LockKey lockKey;

		private final LockNode node;

		private final long fencingToken;

		private final @Nullable Thread holder;

		private final long acquiredAtMillis = System.currentTimeMillis();

		private volatile @Nullable String lossReason;

		/**
		 * Completes, with the reason, when the loss detector first doubts or loses the
		 * hold ({@link #invalidated(String)}): what
		 * {@link AcquiredLock#whenInvalidated()} tells. Completed outside
		 * {@link LockKey#lock}, as its dependents are the application's.
		 */
		private final CompletableFuture<String> invalidation = new CompletableFuture<>();

		/**
		 * The doubt in one word: the doubt generation, which each
		 * {@link #markUncertain()} advances, shifted left by one, and in the lowest bit
		 * whether the lock is uncertain. A confirmation makes certain only the generation
		 * it confirmed, by compare-and-set, so a doubt raised after it asked is never
		 * erased.
		 */
		private final AtomicLong doubt = new AtomicLong();

		/** The acquisitions not released yet, delayed ones included. */
		private int acquisitions = 1;

		/** The acquisitions whose release was delayed, not released yet. */
		private int delayedExits;

		/** Whether the thread is done with the hold (only delayed releases left). */
		private boolean threadLeft;

		/** Whether the acquisition completed, so that a loss may interrupt the holder. */
		private boolean begun;

		/** Whether the lost-lock policy interrupted the holder. */
		private boolean holderInterrupted;

		/**
		 * Whether the hold gave its node back to its cohort ({@link LockKey#giveBack},
		 * {@link LockKey#giveUp}): the node may be another hold's now.
		 */
		private boolean givenBack;

		Hold(LockKey lockKey, LockNode node, int handOff, @Nullable Thread holder) {
			this.lockKey = lockKey;
			this.node = node;
			this.fencingToken = node.fencingToken(handOff);
			this.holder = holder;
		}

		String key() {
			return this.lockKey.key;
		}

		long fencingToken() {
			return this.fencingToken;
		}

		LockNode node() {
			return this.node;
		}

		LockNodeKind kind() {
			return this.node.kind();
		}

		Instant acquiredAt() {
			return Instant.ofEpochMilli(this.acquiredAtMillis);
		}

		int acquisitions() {
			this.lockKey.lock.lock();
			try {
				return this.acquisitions;
			}
			finally {
				this.lockKey.lock.unlock();
			}
		}

		@Nullable Thread holder() {
			return this.holder;
		}

		long sessionId() {
			return this.node.sessionId();
		}

		/** Why the lock counts as lost, or {@code null} while it is not. */
		@Nullable String lossReason() {
			return this.lossReason;
		}

		boolean isUncertain() {
			return (this.doubt.get() & 1) != 0;
		}

		/**
		 * Event: the loss detector doubted or lost the hold, for the given reason; only
		 * the first call counts.
		 */
		void invalidated(String reason) {
			this.invalidation.complete(reason);
		}

		/** Completes with the reason of the first doubt or loss of the hold. */
		CompletableFuture<String> invalidation() {
			return this.invalidation;
		}

		/**
		 * How many doubts were raised: read it before asking ZooKeeper whether the lock
		 * is still held, and pass it to {@link #markCertain(long)} with the answer.
		 */
		long doubtGeneration() {
			return this.doubt.get() >>> 1;
		}

		/**
		 * Event: a doubt is raised. The lock is uncertain, in a new doubt generation, and
		 * its node takes no more holders of this process, unless the hold gave it back
		 * already: the loss detector raises doubts on the holds it saw registered, among
		 * which a hold that passed its node on since, to a successor that the same doubt
		 * reaches on its own (registered before the doubt) or not at all (its turn then
		 * checks the doubt count).
		 */
		void markUncertain() {
			this.doubt.updateAndGet((doubt) -> (((doubt >>> 1) + 1) << 1) | 1);
			Cohort cohort = this.lockKey.cohortOf(kind());
			if (cohort != null) {
				this.lockKey.lock.lock();
				try {
					if (!this.givenBack) {
						cohort.retire(this.node);
					}
				}
				finally {
					this.lockKey.lock.unlock();
				}
			}
		}

		/**
		 * Makes the lock certain again, unless a doubt was raised after the given
		 * {@link #doubtGeneration() generation}.
		 */
		void markCertain(long generation) {
			this.doubt.compareAndSet((generation << 1) | 1, generation << 1);
		}

		/**
		 * Event: the lock is declared lost, once; returns whether this call declared it.
		 * Its node leaves the cohort: its holders keep it until they leave, and this
		 * process's waiting threads queue a new node in ZooKeeper, as other processes'
		 * do.
		 */
		boolean markLost(String reason) {
			this.lockKey.lock.lock();
			try {
				if (this.lossReason != null) {
					return false;
				}
				this.lossReason = reason;
				Cohort cohort = this.lockKey.cohortOf(kind());
				if (cohort != null) {
					cohort.lost(this.node);
				}
				return true;
			}
			finally {
				this.lockKey.lock.unlock();
			}
		}

		/**
		 * Interrupts the holding thread, unless the hold has not begun, has ended or was
		 * left by its thread, or belongs to no thread. A holder interrupted already keeps
		 * that interrupt as its own: the release leaves it set.
		 */
		void interruptHolder() {
			this.lockKey.lock.lock();
			try {
				if (this.begun && !this.threadLeft && this.holder != null && !this.holder.isInterrupted()) {
					this.holderInterrupted = true;
					this.holder.interrupt();
				}
			}
			finally {
				this.lockKey.lock.unlock();
			}
		}

		/**
		 * Whether the lost-lock policy interrupted the holder; final once the hold ended
		 * or its thread left it.
		 */
		boolean holderInterrupted() {
			this.lockKey.lock.lock();
			try {
				return this.holderInterrupted;
			}
			finally {
				this.lockKey.lock.unlock();
			}
		}

		@Override
		public String toString() {
			return "Hold[key=" + key() + ", node=" + this.node.path() + ", fencingToken=" + this.fencingToken
					+ ", session=0x" + Long.toHexString(sessionId()) + "]";
		}

	}

	/**
	 * The threads of this process that want one kind of lock of the key, and the node
	 * they share; guarded by the key's lock.
	 */
	private static final class Cohort {

		private final boolean shared;

		private final HandOffPolicy policy;

		private final Deque<Waiter> waiters = new ArrayDeque<>();

		private @Nullable LockNode node;

		private int holders;

		private int handOffs;

		private long nodeAcquiredAt;

		private long nodeCheckedAt;

		private boolean retired;

		private boolean leading;

		/**
		 * The nodes doubted while a leader queues for its node, which may be among them:
		 * a leader's node may be doubted before the leader reports it led.
		 */
		private final Set<LockNode> doubtedWhileLeading = new HashSet<>();

		/**
		 * The nodes that left the cohort while held, each with the number of its holders
		 * that have not left it yet (at least one): a node whose lock was lost, and a
		 * read node that took no more holders when a reader came, which then led a new
		 * node. The last holder to leave releases it.
		 */
		private final Map<LockNode, Integer> formerNodes = new HashMap<>();

		/**
		 * Whether another node queues behind the held node: {@code null} until ZooKeeper
		 * told, so that the policy's bounds apply.
		 */
		private @Nullable Boolean othersQueued;

		private boolean askedWhoQueues;

		Cohort(boolean shared, HandOffPolicy policy) {
			this.shared = shared;
			this.policy = policy;
		}

		void led(LockNode acquired, long checkedAt) {
			this.leading = false;
			this.node = acquired;
			this.nodeCheckedAt = checkedAt;
			this.holders = 1;
			this.handOffs = 0;
			this.retired = this.doubtedWhileLeading.contains(acquired);
			this.doubtedWhileLeading.clear();
			this.nodeAcquiredAt = System.nanoTime();
			this.othersQueued = null;
			this.askedWhoQueues = false;
			passOn();
		}

		void leadFailed() {
			this.leading = false;
			this.doubtedWhileLeading.clear();
			passOn();
		}

		/**
		 * Takes no more holders on a doubted node; a leader's node may be doubted before
		 * the leader reports it led.
		 */
		void retire(LockNode doubted) {
			if (doubted.equals(this.node)) {
				this.retired = true;
			}
			else if (this.node == null && this.leading) {
				this.doubtedWhileLeading.add(doubted);
			}
		}

		/**
		 * Lets a lost node leave the cohort. A leader's node lost before the leader
		 * reports it led never joins it: the leader's hold does not begin.
		 */
		void lost(LockNode lostNode) {
			if (lostNode.equals(this.node)) {
				detachNode();
				passOn();
			}
		}

		/** The cohort's node leaves it, to its holders, who release it. */
		private void detachNode() {
			this.formerNodes.put(this.node, this.holders);
			this.node = null;
			this.holders = 0;
			this.retired = false;
		}

		/**
		 * A holder leaves a node: it passes to the next waiter, or stays with the other
		 * holders of a shared node, or is released; a node that left the cohort because
		 * its lock was lost is released by the last of its holders.
		 * @return the node to release to ZooKeeper, or {@code null} if it stays held
		 */
		@Nullable LockNode leave(LockNode held, boolean handOff, long checkedAt) {
			if (!held.equals(this.node)) {
				Integer holdersLeft = this.formerNodes.computeIfPresent(held,
						(lostNode, count) -> (count > 1) ? count - 1 : null);
				return (holdersLeft == null) ? held : null;
			}
			this.holders--;
			this.retired |= !handOff;
			if (handOff) {
				this.nodeCheckedAt = Math.max(this.nodeCheckedAt, checkedAt);
			}
			if (this.holders > 0) {
				return null;
			}
			passOn();
			if (this.holders > 0) {
				return null;
			}
			LockNode released = this.node;
			this.node = null;
			passOn();
			return released;
		}

		/**
		 * Gives turns to waiters in order, as long as the node can take holders, or one
		 * waiter the lead when there is no node and no leader.
		 */
		private void passOn() {
			while (!this.waiters.isEmpty()) {
				Turn turn = nextTurn();
				if (turn == null) {
					return;
				}
				this.waiters.removeFirst().give(turn);
			}
		}

		@Nullable Turn nextTurn() {
			LockNode held = this.node;
			if (held != null) {
				if (acceptsHolder()) {
					this.holders++;
					this.handOffs++;
					return new Turn(held, this.handOffs, this.nodeCheckedAt);
				}
				if (!leadsAnotherReadNode()) {
					return null;
				}
				detachNode();
			}
			if (!this.leading) {
				this.leading = true;
				return Turn.LEAD;
			}
			return null;
		}

		/**
		 * Whether a reader that the held read node does not take leads a new read node
		 * rather than wait for the held one's readers to leave: once the node is retired,
		 * out of fencing tokens, or known to have another node queued behind it. A new
		 * node queues behind every node already queued, a writer's too, so it never
		 * overtakes one; until ZooKeeper tells whether one queues, the reader waits for
		 * the answer, which lets it join the held node if none does.
		 */
		private boolean leadsAnotherReadNode() {
			return this.shared && (this.retired || this.handOffs >= LockNode.MAX_HAND_OFFS
					|| Boolean.TRUE.equals(this.othersQueued));
		}

		private boolean acceptsHolder() {
			boolean withinBounds = this.handOffs < this.policy.maxHandOffs()
					&& System.nanoTime() - this.nodeAcquiredAt < this.policy.maxTimeNanos();
			return (this.shared || this.holders == 0) && !this.retired && this.handOffs < LockNode.MAX_HAND_OFFS
					&& (withinBounds || Boolean.FALSE.equals(this.othersQueued));
		}

	}

}
