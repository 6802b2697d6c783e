package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.atomic.AtomicLong;

import org.jspecify.annotations.Nullable;

/**
 * A key's state for the model checker: one {@link LockKey} with hand-offs on, driven the
 * way {@link ZooKeeperLockRegistry} drives it, with the simulated queue in place of the
 * {@link LockQueue} and a count of doubts in place of the {@link LockLossDetector}.
 */
final class LockKeyState implements KeyStateModel<LockKey.Hold> {

	private final SimulatedLockQueue queue;

	private final LockKey lockKey = new LockKey("k", new HandOffPolicy(true, 64, Duration.ofMinutes(1)));

	/** The doubts raised so far, as {@link LockLossDetector#doubts()} counts them. */
	private final AtomicLong doubts = new AtomicLong();

	LockKeyState(SimulatedLockQueue queue) {
		this.queue = queue;
	}

	@Override
	public @Nullable Acquisition<LockKey.Hold> acquire(Thread owner, boolean wait) throws InterruptedException {
		LockKey.Hold current = this.lockKey.reenter(LockNodeKind.EXCLUSIVE, owner);
		if (current != null) {
			if (!isHeld(current) && current.lossReason() != null) {
				this.lockKey.exit(current);
				return null;
			}
			return new Acquisition<>(current, current.fencingToken(), true);
		}
		LockKey.Hold hold = take(wait, owner);
		return (hold != null) ? new Acquisition<>(hold, hold.fencingToken(), false) : null;
	}

	/**
	 * Takes a hold as the registry does: a turn at the key, or the lead and a node of its
	 * own; a turn handed over stands only if no doubt came since the node was last found
	 * held.
	 */
	private LockKey.@Nullable Hold take(boolean wait, Thread owner) throws InterruptedException {
		while (true) {
			LockKey.Waiter waiter = this.lockKey.arrive(LockNodeKind.EXCLUSIVE);
			LockKey.Turn turn = this.lockKey.await(waiter, System.nanoTime() + (wait ? KeyStateModel.WAIT_NANOS : 0));
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
			LockKey.Hold hold = new LockKey.Hold(this.lockKey, turn.node(), turn.handOff(), owner);
			long checkedAt = this.doubts.get();
			if (isHeld(hold) && (leads || this.doubts.get() == turn.checkedAt())
					&& this.lockKey.begin(hold, leads, checkedAt)) {
				return hold;
			}
			LockNode abandoned = this.lockKey.giveUp(hold, leads);
			if (abandoned != null) {
				this.queue.delete(abandoned);
			}
		}
	}

	private LockKey.@Nullable Turn lead(boolean wait) throws InterruptedException {
		LockNode node = this.queue.create();
		boolean turnCame = false;
		try {
			turnCame = this.queue.awaitTurn(node, wait);
			return turnCame ? new LockKey.Turn(node, 0, 0) : null;
		}
		finally {
			if (!turnCame) {
				this.queue.delete(node);
				this.lockKey.leadFailed(LockNodeKind.EXCLUSIVE);
			}
		}
	}

	@Override
	public boolean release(LockKey.Hold hold) {
		if (this.lockKey.exit(hold) == LockKey.Change.ENDED) {
			giveBack(hold);
			return true;
		}
		return false;
	}

	@Override
	public void releaseLater(LockKey.Hold hold) {
		this.lockKey.delayExit(hold);
	}

	@Override
	public boolean releaseDelayed(LockKey.Hold hold) {
		if (this.lockKey.exitDelayed(hold) == LockKey.Change.ENDED) {
			giveBack(hold);
			return true;
		}
		return false;
	}

	/**
	 * Gives back the node of a hold that ended, as the registry does: to the next waiter
	 * if the lock is still held as far as this process can tell, else to the simulated
	 * queue.
	 */
	private void giveBack(LockKey.Hold hold) {
		long checkedAt = this.doubts.get();
		LockNode released = this.lockKey.giveBack(hold, isHeld(hold), checkedAt);
		if (released != null) {
			this.queue.delete(released);
		}
	}

	@Override
	public void doubt(LockKey.Hold hold) {
		this.doubts.incrementAndGet();
		hold.markUncertain();
	}

	@Override
	public void lose(LockKey.Hold hold) {
		this.doubts.incrementAndGet();
		hold.markLost("lost in the model");
	}

	@Override
	public int acquisitions(LockKey.Hold hold) {
		return hold.acquisitions();
	}

	/**
	 * Whether the hold's lock is held as far as this process can tell, as
	 * {@link LockLossDetector#isHeld} answers while connected.
	 */
	private static boolean isHeld(LockKey.Hold hold) {
		return hold.lossReason() == null && !hold.isUncertain();
	}

}
