package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicLong;

import dev.zklock.zookeeper.LockQueue.QueuedNode;
import org.jspecify.annotations.Nullable;

/**
 * Today's key state for the model checker: {@link LockHold}s in a {@link LockCohort} with
 * hand-offs on, driven the way {@link LockReentry}, {@link HoldExchange} and
 * {@link LockReleaser} drive them, with the simulated queue in place of
 * {@link QueueTurns} and a count of doubts in place of the {@link LockLossDetector}.
 */
final class LockHoldKeyState implements KeyStateModel<LockHold> {

	/**
	 * ZooKeeper never tells who queues behind the cohort's node: the bounds apply, and
	 * under the model checker's frozen clock only the count of hand-offs ends them.
	 */
	private static final QueueWatch UNANSWERED = (held, othersQueued) -> {
	};

	private final SimulatedLockQueue queue;

	private final LockCohort cohort = new LockCohort(false, new HandOffPolicy(true, 64, Duration.ofMinutes(1)),
			UNANSWERED);

	/**
	 * The holds that each thread's next acquisitions re-enter, as in {@link LockEntry}.
	 */
	private final Map<Thread, LockHold> holds = new ConcurrentHashMap<>();

	/** The doubts raised so far, as {@link LockLossDetector#doubts()} counts them. */
	private final AtomicLong doubts = new AtomicLong();

	LockHoldKeyState(SimulatedLockQueue queue) {
		this.queue = queue;
	}

	@Override
	public @Nullable Acquisition<LockHold> acquire(boolean wait) throws InterruptedException {
		Thread owner = Thread.currentThread();
		LockHold current = this.holds.get(owner);
		if (current != null && current.enter()) {
			if (!isHeld(current) && current.lossReason() != null) {
				current.exit();
				return null;
			}
			return new Acquisition<>(current, current.fencingToken(), true);
		}
		LockHold hold = take(wait, owner);
		if (hold == null) {
			return null;
		}
		this.holds.put(owner, hold);
		return new Acquisition<>(hold, hold.fencingToken(), false);
	}

	/**
	 * Takes a hold as {@link HoldExchange#take} does: a turn in the cohort, or the lead
	 * and a node of its own; a turn handed over stands only if no doubt came since the
	 * node was last found held.
	 */
	private @Nullable LockHold take(boolean wait, Thread owner) throws InterruptedException {
		while (true) {
			CohortTurn turn = this.cohort.await(System.nanoTime() + (wait ? KeyStateModel.WAIT_NANOS : 0));
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
			QueuedNode node = turn.node();
			LockHold hold = new LockHold("k", node, node.fencingToken(turn.handOff()), owner, this.cohort);
			long checkedAt = this.doubts.get();
			if (isHeld(hold) && (leads || this.doubts.get() == turn.checkedAt()) && hold.begin()) {
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
				QueuedNode released = this.cohort.leave(node, false, 0);
				if (released != null) {
					this.queue.delete(released);
				}
			}
		}
	}

	private @Nullable CohortTurn lead(boolean wait) throws InterruptedException {
		QueuedNode node = this.queue.create();
		boolean turnCame = false;
		try {
			turnCame = this.queue.awaitTurn(node, wait);
			return turnCame ? new CohortTurn(node, 0, 0) : null;
		}
		finally {
			if (!turnCame) {
				this.queue.delete(node);
				this.cohort.leadFailed();
			}
		}
	}

	@Override
	public boolean release(LockHold hold) {
		switch (hold.exit()) {
			case STILL_HELD -> {
				return false;
			}
			case THREAD_LEFT -> {
				this.holds.remove(hold.holder(), hold);
				return false;
			}
			default -> {
				giveBack(hold);
				return true;
			}
		}
	}

	@Override
	public void releaseLater(LockHold hold) {
		if (hold.delayExit() == LockHold.Change.THREAD_LEFT) {
			this.holds.remove(hold.holder(), hold);
		}
	}

	@Override
	public boolean releaseDelayed(LockHold hold) {
		if (hold.exitDelayed() == LockHold.Change.ENDED) {
			giveBack(hold);
			return true;
		}
		return false;
	}

	/**
	 * Gives back the node of a hold that ended, as {@link LockReleaser} does: to the next
	 * waiter if the lock is still held as far as this process can tell, else to the
	 * simulated queue.
	 */
	private void giveBack(LockHold hold) {
		long checkedAt = this.doubts.get();
		boolean handOff = isHeld(hold);
		this.holds.remove(hold.holder(), hold);
		QueuedNode released = this.cohort.leave(hold.node(), handOff, checkedAt);
		if (released != null) {
			this.queue.delete(released);
		}
	}

	@Override
	public void doubt(LockHold hold) {
		this.doubts.incrementAndGet();
		hold.markUncertain();
	}

	@Override
	public void lose(LockHold hold) {
		this.doubts.incrementAndGet();
		hold.markLost("lost in the model");
	}

	@Override
	public int acquisitions(LockHold hold) {
		return hold.acquisitions();
	}

	/**
	 * Whether the hold's lock is held as far as this process can tell, as
	 * {@link LockLossDetector#isHeld} answers while connected.
	 */
	private static boolean isHeld(LockHold hold) {
		return hold.lossReason() == null && !hold.isUncertain();
	}

}
