package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.function.Consumer;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockAcquisitionException;
import dev.zklock.LockTimeoutException;
import dev.zklock.zookeeper.LockNode;
import org.jspecify.annotations.Nullable;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Drives a key's {@link LockKey} state through the acquisitions and releases of
 * {@link ZooKeeperLockRegistry}: it turns the state's answers into requests to the key's
 * queue, and the queue's and the loss detector's answers into the state's events. It does
 * no I/O of its own: ZooKeeper is its {@link Queue} and what it learns of losses comes
 * from its {@link Detector}, which the registry backs with a {@link LockQueue} and its
 * {@link LockLossDetector}, and the model checker with a queue in memory and counts of
 * its own, so that the interleavings it explores are those of this code.
 * <p>
 * Each acquisition follows one path: it re-enters its thread's hold of the key if it has
 * one, or else takes a turn in the key's state (to hold a node passed on by another
 * thread of this process with no ZooKeeper round trip, or to lead, that is to queue a
 * node in ZooKeeper), and the hold begins once its node is found held in the client's
 * current session with no doubt since it was last found held. A release ends the hold in
 * the key's state and passes the node on or deletes it.
 */
final class LockKeyDriver {

	// logs under the registry's name, which operators know and configure
	private static final Logger logger = LoggerFactory.getLogger(ZooKeeperLockRegistry.LOGGER_NAME);

	private final Queue queue;

	private final Detector detector;

	LockKeyDriver(Queue queue, Detector detector) {
		this.queue = queue;
		this.detector = detector;
	}

	/**
	 * Re-enters the owner's hold of the key, if it has one that the acquisition shares,
	 * unless that hold was lost: a nested acquisition never starts under a lock known to
	 * be lost.
	 * @return the hold re-entered, or {@code null} if the acquisition takes a hold of its
	 * own
	 * @throws LockAcquisitionException if the owner's hold was lost
	 */
	LockKey.@Nullable Hold reenter(LockKey lockKey, LockNodeKind kind, @Nullable Thread owner) {
		LockKey.Hold current = lockKey.reenter(kind, owner);
		if (current != null && !this.detector.isHeld(current) && current.lossReason() != null) {
			// takes back the acquisition that entered: one of the thread's own is left
			lockKey.exit(current);
			throw new LockAcquisitionException(lockKey.key,
					"Could not re-enter lock '" + AbbreviatedKey.of(lockKey.key)
							+ "': the current thread's hold of it (fencing token " + current.fencingToken()
							+ ") was lost: " + current.lossReason(),
					null);
		}
		return current;
	}

	/**
	 * Takes a hold: waits for a turn in the key's state, leads (queues a node in
	 * ZooKeeper) when the turn says so, and checks that the node belongs to the current
	 * session and that nothing cast doubt on it since it was last found held (by
	 * ZooKeeper's answer, or by the holder that handed it over). A node whose session
	 * ended holds nothing, a doubted node is given up, and the acquisition starts again
	 * if the wait time allows.
	 * @return the hold, begun and registered with the detector
	 * @throws LockTimeoutException if other holders kept the lock for the wait time
	 */
	LockKey.Hold take(LockKey lockKey, LockNodeKind kind, Duration waitTime, long deadline, @Nullable Thread owner)
			throws Exception {
		while (true) {
			LockKey.Waiter waiter = lockKey.arrive(kind);
			watchBehind(lockKey, kind);
			LockKey.Turn turn = lockKey.await(waiter, deadline);
			if (turn == null) {
				throw timeout(lockKey, waitTime, deadline);
			}
			boolean leads = turn.leads();
			if (leads) {
				turn = lead(lockKey, kind, owner, waitTime, deadline);
			}
			LockKey.Hold hold = new LockKey.Hold(lockKey, turn.node(), turn.handOff(), owner);
			long checkedAt = this.detector.doubts();
			this.detector.register(hold);
			if (isHeld(hold, turn, leads) && lockKey.begin(hold, leads, checkedAt)) {
				watchBehind(lockKey, kind);
				return hold;
			}
			this.detector.unregister(hold);
			LockNode abandoned = lockKey.giveUp(hold, leads);
			if (abandoned != null) {
				this.queue.abandon(lockKey.key, abandoned);
			}
			if (System.nanoTime() - deadline >= 0) {
				throw new LockAcquisitionException(lockKey.key,
						"Could not acquire lock '" + AbbreviatedKey.of(lockKey.key) + "' within " + waitTime.toMillis()
								+ "ms: its lock node was in doubt (a suspended connection, an "
								+ "ended ZooKeeper session or a pause of this process) before it was held",
						null);
			}
			logger.debug("The lock node of '{}' was in doubt before it was held; queueing again",
					AbbreviatedKey.of(lockKey.key));
		}
	}

	/**
	 * Queues for a lock node in ZooKeeper and waits for its turn, leading the key's
	 * cohort: a cohort whose leader fails is led by its next waiter.
	 */
	private LockKey.Turn lead(LockKey lockKey, LockNodeKind kind, @Nullable Thread owner, Duration waitTime,
			long deadline) throws Exception {
		LockKey.Turn turn = null;
		try {
			turn = this.queue.take(lockKey.key, kind, owner, waitTime, deadline);
			if (turn == null) {
				throw timeout(lockKey, waitTime, deadline);
			}
			return turn;
		}
		finally {
			if (turn == null) {
				lockKey.leadFailed(kind);
			}
		}
	}

	/**
	 * Whether a new hold's node is held in the current session, and nothing cast doubt on
	 * it since it was last found held. A node whose turn ZooKeeper just showed was found
	 * held by that answer, in a session the client is still connected in: only a pause
	 * since can have ended that session unnoticed. A node taken over from another holder
	 * of this process was found held by that holder's check: any doubt since (a suspended
	 * connection too, which may have been lost under the {@link LostLockPolicy}) keeps it
	 * from passing on.
	 */
	private boolean isHeld(LockKey.Hold hold, LockKey.Turn turn, boolean leads) {
		return this.detector.isHeld(hold) && hold.sessionId() == this.detector.currentSessionId() && (leads
				? this.detector.unpausedSince(turn.checkedAt()) : this.detector.undoubtedSince(turn.checkedAt()));
	}

	/**
	 * Asks ZooKeeper whether another node queues behind the key's held node, if the key's
	 * state wants to know: a failed request tells nothing, so the hand-off bounds apply
	 * as if another node queued.
	 */
	private void watchBehind(LockKey lockKey, LockNodeKind kind) {
		LockNode held = lockKey.watchToSend(kind);
		if (held != null) {
			try {
				this.queue.watchBehind(lockKey.key, held, (queued) -> lockKey.othersQueued(held, queued));
			}
			catch (Exception ex) {
				logger.debug("Could not ask who queues behind {}: {}", held.path(), ex.toString());
				lockKey.othersQueued(held, true);
			}
		}
	}

	private LockTimeoutException timeout(LockKey lockKey, Duration waitTime, long deadline) {
		return new LockTimeoutException(lockKey.key, waitTime, this.queue.describeHead(lockKey.key, deadline));
	}

	/**
	 * Releases one acquisition; the last one sharing a hold hands its lock node to a
	 * waiting thread of this process, or sends its deletion to ZooKeeper without waiting
	 * for the reply. The interrupt that the lost-lock policy gave the holder ends here;
	 * an interrupt the thread had before the policy's stays set (the policy did not
	 * interrupt it then), while one set after the policy's cannot be told apart from it
	 * and ends with it.
	 * @return what the release changed: {@link LockKey.Change#ENDED} if it ended the hold
	 */
	LockKey.Change release(LockKey lockKey, LockKey.Hold hold) {
		LockKey.Change change = lockKey.exit(hold);
		if (change != LockKey.Change.STILL_HELD) {
			endPolicyInterrupt(hold);
		}
		if (change == LockKey.Change.ENDED) {
			LockNode released = giveBack(lockKey, hold);
			if (released != null) {
				this.queue.release(lockKey.key, released);
			}
		}
		return change;
	}

	/**
	 * Releases one acquisition later, with {@link #endDelayedRelease}: the thread whose
	 * last acquisition of its hold this is leaves the hold now, and its later
	 * acquisitions of the key queue like any other's.
	 */
	void delayRelease(LockKey lockKey, LockKey.Hold hold) {
		if (lockKey.delayExit(hold) == LockKey.Change.THREAD_LEFT) {
			endPolicyInterrupt(hold);
		}
	}

	/**
	 * Ends a delayed release, on whichever thread runs it, without waiting for ZooKeeper
	 * to confirm the deletion of the node; runs {@code exitCounted} once the exit is
	 * counted, before acting on the count.
	 * @return what the release changed: {@link LockKey.Change#ENDED} if it ended the hold
	 */
	LockKey.Change endDelayedRelease(LockKey lockKey, LockKey.Hold hold, Runnable exitCounted) {
		LockKey.Change change = lockKey.exitDelayed(hold);
		exitCounted.run();
		if (change == LockKey.Change.ENDED) {
			LockNode node = giveBack(lockKey, hold);
			if (node != null) {
				this.queue.abandon(lockKey.key, node);
			}
		}
		return change;
	}

	/**
	 * The holding thread is done with a hold: the interrupt that the lost-lock policy
	 * gave it ends.
	 */
	private static void endPolicyInterrupt(LockKey.Hold hold) {
		if (hold.holder() == Thread.currentThread() && hold.holderInterrupted()) {
			Thread.interrupted();
		}
	}

	/**
	 * Gives back the lock node of a hold that ended: it passes to a waiting thread of
	 * this process if the lock is still held as far as this process can tell.
	 * @return the node to release to ZooKeeper, or {@code null} if it stays held
	 */
	private @Nullable LockNode giveBack(LockKey lockKey, LockKey.Hold hold) {
		long checkedAt = this.detector.doubts();
		boolean handOff = this.detector.isHeld(hold);
		this.detector.unregister(hold);
		return lockKey.giveBack(hold, handOff, checkedAt);
	}

	/**
	 * A key's queue of lock nodes in ZooKeeper, as the driver uses it: a
	 * {@link LockQueue} per key in the registry.
	 */
	interface Queue {

		/**
		 * Waits for a connection, enqueues a node and waits for its turn, all by the
		 * deadline ({@link LockQueue#take}).
		 * @return the turn to lead with the node, whose {@link LockKey.Turn#checkedAt()}
		 * is the {@link LockLossDetector#pauses() pause count} read before ZooKeeper
		 * showed the turn, or {@code null} if other holders kept the lock
		 */
		LockKey.@Nullable Turn take(String key, LockNodeKind kind, @Nullable Thread owner, Duration waitTime,
				long deadline) throws Exception;

		/**
		 * Tells {@code othersQueued} whether other nodes queue behind a held node
		 * ({@link LockQueue#watchBehind}).
		 */
		void watchBehind(String key, LockNode held, Consumer<Boolean> othersQueued) throws Exception;

		/** Deletes a released node in the background ({@link LockQueue#release}). */
		void release(String key, LockNode node);

		/** Deletes a node nobody holds any more ({@link LockQueue#abandon}). */
		void abandon(String key, LockNode node);

		/**
		 * Who holds the head of the queue, for a timed-out wait, or {@code null}
		 * ({@link LockQueue#describeHead}).
		 */
		@Nullable String describeHead(String key, long deadline);

	}

	/**
	 * What the driver learns of losses: the registry's {@link LockLossDetector}, whose
	 * methods of the same names these are.
	 */
	interface Detector {

		void register(LockKey.Hold hold);

		void unregister(LockKey.Hold hold);

		boolean isHeld(LockKey.Hold hold);

		long doubts();

		boolean undoubtedSince(long doubts);

		boolean unpausedSince(long pauses);

		long currentSessionId();

	}

}
