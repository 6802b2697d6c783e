package dev.zklock.zookeeper;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicIntegerFieldUpdater;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.ReentrantLock;

import org.jspecify.annotations.Nullable;

/**
 * The key state as it was before a hold's count moved into one place under one monitor
 * (the parent of commit 1a864e4), kept to show that {@link KeyStateModelCheckTests}'
 * checker finds its race: {@code LockHold}'s two atomic counters changed and read apart,
 * {@code LockReentry}, which re-entered whatever hold the thread's mapping still named,
 * {@code LockReleaser}, which unmapped the thread only when it read that only delayed
 * releases were left, and {@code LockCohort}, which retired a lost node rather than let
 * it leave. Reduced to what the model needs: no hand-off bounds, no interrupt of a lost
 * holder.
 */
final class OldKeyState implements KeyStateModel<OldKeyState.Hold> {

	private final SimulatedLockQueue queue;

	private final Cohort cohort = new Cohort();

	/**
	 * The holds that each thread's next acquisitions re-enter, as in {@code LockEntry}.
	 */
	private final Map<Thread, Hold> holds = new ConcurrentHashMap<>();

	/** The doubts raised so far, as {@code LockLossDetector#doubts()} counts them. */
	private final AtomicLong doubts = new AtomicLong();

	OldKeyState(SimulatedLockQueue queue) {
		this.queue = queue;
	}

	@Override
	public @Nullable Acquisition<Hold> acquire(Thread owner, LockNodeKind kind, boolean wait)
			throws InterruptedException {
		if (kind != LockNodeKind.EXCLUSIVE) {
			throw new IllegalArgumentException("The former key state knows exclusive locks only, not " + kind);
		}
		Hold current = this.holds.get(owner);
		if (current != null) {
			if (!isHeld(current) && current.lossReason != null) {
				return null;
			}
			current.enter();
			return new Acquisition<>(current, current.fencingToken, true);
		}
		Hold hold = take(wait, owner);
		if (hold == null) {
			return null;
		}
		this.holds.put(owner, hold);
		return new Acquisition<>(hold, hold.fencingToken, false);
	}

	private @Nullable Hold take(boolean wait, Thread owner) throws InterruptedException {
		while (true) {
			LockKey.Turn turn = this.cohort.await(System.nanoTime() + (wait ? KeyStateModel.WAIT_NANOS : 0));
			if (turn == null) {
				return null;
			}
			boolean leads = turn.leads();
			if (leads) {
				turn = lead(wait);
				if (turn == null) {
					return null;
				}
			}
			LockNode node = turn.node();
			Hold hold = new Hold(node, node.fencingToken(turn.handOff()), owner);
			long checkedAt = this.doubts.get();
			if (isHeld(hold) && (leads || this.doubts.get() == turn.checkedAt())) {
				if (leads) {
					this.cohort.led(node, checkedAt);
				}
				return hold;
			}
			if (leads) {
				this.queue.delete(node);
				this.cohort.leadFailed();
			}
			else {
				LockNode released = this.cohort.leave(false, 0);
				if (released != null) {
					this.queue.delete(released);
				}
			}
		}
	}

	private LockKey.@Nullable Turn lead(boolean wait) throws InterruptedException {
		LockNode node = this.queue.create(LockNodeKind.EXCLUSIVE);
		boolean turnCame = false;
		try {
			turnCame = this.queue.awaitTurn(node, wait);
			return turnCame ? new LockKey.Turn(node, 0, 0) : null;
		}
		finally {
			if (!turnCame) {
				this.queue.delete(node);
				this.cohort.leadFailed();
			}
		}
	}

	@Override
	public boolean release(Hold hold) {
		if (!hold.exit()) {
			if (hold.onlyDelayedLeft()) {
				this.holds.remove(hold.holder, hold);
			}
			return false;
		}
		end(hold);
		return true;
	}

	@Override
	public void releaseLater(Hold hold) {
		hold.delayExit();
		if (hold.onlyDelayedLeft()) {
			this.holds.remove(hold.holder, hold);
		}
	}

	@Override
	public boolean releaseDelayed(Hold hold) {
		if (hold.exitDelayed()) {
			end(hold);
			return true;
		}
		return false;
	}

	private void end(Hold hold) {
		long checkedAt = this.doubts.get();
		boolean handOff = isHeld(hold);
		this.holds.remove(hold.holder, hold);
		LockNode released = this.cohort.leave(handOff, checkedAt);
		if (released != null) {
			this.queue.delete(released);
		}
	}

	@Override
	public void doubt() {
		this.doubts.incrementAndGet();
		for (Hold hold : this.holds.values()) {
			hold.uncertain = true;
			this.cohort.retire(hold.node);
		}
	}

	@Override
	public void confirm() {
		this.holds.values().forEach((hold) -> hold.uncertain = false);
	}

	@Override
	public void lose() {
		this.doubts.incrementAndGet();
		for (Hold hold : this.holds.values()) {
			hold.lossReason = "lost in the model";
			this.cohort.retire(hold.node);
		}
	}

	@Override
	public int acquisitions(Hold hold) {
		return hold.acquisitions;
	}

	private static boolean isHeld(Hold hold) {
		return hold.lossReason == null && !hold.uncertain;
	}

	/**
	 * The former {@code LockHold}'s count: two atomic counters, changed and read apart.
	 */
	static final class Hold {

		private static final AtomicIntegerFieldUpdater<Hold> ACQUISITIONS = AtomicIntegerFieldUpdater
			.newUpdater(Hold.class, "acquisitions");

		private static final AtomicIntegerFieldUpdater<Hold> DELAYED_EXITS = AtomicIntegerFieldUpdater
			.newUpdater(Hold.class, "delayedExits");

		private final LockNode node;

		private final long fencingToken;

		private final Thread holder;

		private volatile int acquisitions = 1;

		private volatile int delayedExits;

		private volatile @Nullable String lossReason;

		private volatile boolean uncertain;

		Hold(LockNode node, long fencingToken, Thread holder) {
			this.node = node;
			this.fencingToken = fencingToken;
			this.holder = holder;
		}

		void enter() {
			ACQUISITIONS.incrementAndGet(this);
		}

		boolean exit() {
			return ACQUISITIONS.decrementAndGet(this) == 0;
		}

		void delayExit() {
			DELAYED_EXITS.incrementAndGet(this);
		}

		boolean exitDelayed() {
			DELAYED_EXITS.decrementAndGet(this);
			return exit();
		}

		boolean onlyDelayedLeft() {
			return this.acquisitions == this.delayedExits;
		}

		@Override
		public String toString() {
			return "Hold[" + this.fencingToken + "]";
		}

	}

	/**
	 * The former {@code LockCohort} of exclusive locks, without the hand-off bounds: a
	 * doubted or lost node is retired, so it takes no more holders, and its holders'
	 * departures release it.
	 */
	static final class Cohort {

		private final ReentrantLock lock = new ReentrantLock();

		private final Deque<Waiter> waiters = new ArrayDeque<>();

		private @Nullable LockNode node;

		private int holders;

		private int handOffs;

		private long nodeCheckedAt;

		private boolean retired;

		private @Nullable LockNode doubtedBeforeLed;

		private boolean leading;

		LockKey.@Nullable Turn await(long deadline) throws InterruptedException {
			this.lock.lock();
			try {
				if (this.waiters.isEmpty()) {
					LockKey.Turn turn = nextTurn();
					if (turn != null) {
						return turn;
					}
				}
				Waiter waiter = new Waiter(this.lock.newCondition());
				this.waiters.addLast(waiter);
				try {
					LockKey.Turn turn = waiter.await(deadline);
					if (turn == null) {
						this.waiters.remove(waiter);
					}
					return turn;
				}
				catch (InterruptedException ex) {
					this.waiters.remove(waiter);
					throw ex;
				}
			}
			finally {
				this.lock.unlock();
			}
		}

		void led(LockNode acquired, long checkedAt) {
			this.lock.lock();
			try {
				this.leading = false;
				this.node = acquired;
				this.nodeCheckedAt = checkedAt;
				this.holders = 1;
				this.handOffs = 0;
				this.retired = acquired.equals(this.doubtedBeforeLed);
				this.doubtedBeforeLed = null;
				passOn();
			}
			finally {
				this.lock.unlock();
			}
		}

		void leadFailed() {
			this.lock.lock();
			try {
				this.leading = false;
				this.doubtedBeforeLed = null;
				passOn();
			}
			finally {
				this.lock.unlock();
			}
		}

		void retire(LockNode doubted) {
			this.lock.lock();
			try {
				if (doubted.equals(this.node)) {
					this.retired = true;
				}
				else if (this.node == null && this.leading) {
					this.doubtedBeforeLed = doubted;
				}
			}
			finally {
				this.lock.unlock();
			}
		}

		@Nullable LockNode leave(boolean handOff, long checkedAt) {
			this.lock.lock();
			try {
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
			finally {
				this.lock.unlock();
			}
		}

		private void passOn() {
			while (!this.waiters.isEmpty()) {
				LockKey.Turn turn = nextTurn();
				if (turn == null) {
					return;
				}
				this.waiters.removeFirst().give(turn);
			}
		}

		private LockKey.@Nullable Turn nextTurn() {
			LockNode held = this.node;
			if (held != null) {
				if (this.holders == 0 && !this.retired && this.handOffs < LockNode.MAX_HAND_OFFS) {
					this.holders++;
					this.handOffs++;
					return new LockKey.Turn(held, this.handOffs, this.nodeCheckedAt);
				}
				return null;
			}
			if (!this.leading) {
				this.leading = true;
				return LockKey.Turn.LEAD;
			}
			return null;
		}

	}

	/**
	 * A thread that waits in the former cohort until it is given its turn, used only
	 * under the cohort's lock.
	 */
	static final class Waiter {

		private final Condition turnCame;

		private LockKey.@Nullable Turn turn;

		Waiter(Condition turnCame) {
			this.turnCame = turnCame;
		}

		LockKey.@Nullable Turn await(long deadline) throws InterruptedException {
			while (this.turn == null) {
				long remaining = deadline - System.nanoTime();
				if (remaining <= 0) {
					return null;
				}
				try {
					this.turnCame.awaitNanos(remaining);
				}
				catch (InterruptedException ex) {
					if (this.turn == null) {
						throw ex;
					}
					Thread.currentThread().interrupt();
				}
			}
			return this.turn;
		}

		void give(LockKey.Turn turn) {
			this.turn = turn;
			this.turnCame.signal();
		}

	}

}
