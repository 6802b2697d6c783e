package dev.zklock.zookeeper;

import java.util.concurrent.locks.Condition;

import org.jspecify.annotations.Nullable;

/**
 * A thread that waits in a {@link LockCohort} until the cohort gives it its turn. It is
 * used only under the cohort's lock, whose condition it waits on.
 */
final class CohortWaiter {

	private final Condition turnCame;

	private @Nullable CohortTurn turn;

	CohortWaiter(Condition turnCame) {
		this.turnCame = turnCame;
	}

	/**
	 * Waits until the waiter is given its turn. A turn given while the thread is
	 * interrupted is still taken, with the interrupt flag set.
	 * @param deadline the deadline, on the {@link System#nanoTime()} scale
	 * @return the turn, or {@code null} if the deadline passed first
	 * @throws InterruptedException if the thread was interrupted before its turn came
	 */
	@Nullable CohortTurn await(long deadline) throws InterruptedException {
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

	/**
	 * Gives the waiter its turn, and wakes it.
	 * @param turn the turn
	 */
	void give(CohortTurn turn) {
		this.turn = turn;
		this.turnCame.signal();
	}

}
