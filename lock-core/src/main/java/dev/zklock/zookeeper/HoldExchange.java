package dev.zklock.zookeeper;

import java.time.Duration;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockAcquisitionException;
import dev.zklock.LockTimeoutException;
import dev.zklock.zookeeper.LockQueue.QueuedNode;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.jspecify.annotations.Nullable;

/**
 * Where a registry's acquisitions take their holds of a key's lock and give them back,
 * once {@link RegistryAcquisitions} found that a call does not re-enter a hold it has. A
 * hold is handed over within the key's {@link LockCohort}, or taken in ZooKeeper through
 * its {@link LockQueue} by the cohort's leader (or by every thread, when the lock has no
 * cohort). Either way, a turn becomes a hold only when its node belongs to the client's
 * current session.
 */
final class HoldExchange {

	private static final Logger logger = LoggerFactory.getLogger(HoldExchange.class);

	private final LockLossDetector lossDetector;

	HoldExchange(LockLossDetector lossDetector) {
		this.lossDetector = lossDetector;
	}

	/**
	 * Takes a lock node, from the key's cohort or in ZooKeeper, and checks that it
	 * belongs to the current session and that nothing cast doubt on it since it was last
	 * found held (by ZooKeeper's answer, or by the holder that handed it over): a node
	 * whose session ended holds nothing, a doubted node is deleted, and the acquisition
	 * starts again if the wait time allows.
	 * @param entry the key's entry
	 * @param key the lock key
	 * @param kind the kind of lock
	 * @param applicationName the application's name, for the holder that a node queued in
	 * ZooKeeper names, or {@code null} for none
	 * @param waitTime the wait time, for messages
	 * @param deadline the deadline, on the {@link System#nanoTime()} scale
	 * @param owner the thread that will own the hold, or {@code null} for none
	 * @return the hold, registered with the loss detector
	 * @throws LockTimeoutException if other holders kept the lock for the wait time
	 * @throws Exception if ZooKeeper fails, or the thread is interrupted
	 */
	LockHold take(LockEntry entry, String key, LockNodeKind kind, @Nullable String applicationName, Duration waitTime,
			long deadline, @Nullable Thread owner) throws Exception {
		LockCohort cohort = entry.cohortOf(kind);
		while (true) {
			CohortTurn turn = (cohort != null) ? cohort.await(deadline) : CohortTurn.LEAD;
			if (turn == null) {
				throw timeout(entry, key, waitTime, deadline);
			}
			boolean leads = turn.leads();
			if (leads) {
				turn = lead(cohort, entry, key, kind, HolderIdentity.current(applicationName, owner != null), waitTime,
						deadline);
			}
			QueuedNode node = turn.node();
			LockHold hold = new LockHold(key, node, node.fencingToken(turn.handOff()), owner, cohort);
			long checkedAt = this.lossDetector.doubts();
			this.lossDetector.register(hold);
			if (isHeld(hold, turn, leads) && hold.begin()) {
				if (cohort != null && leads) {
					cohort.led(node, checkedAt);
				}
				return hold;
			}
			this.lossDetector.unregister(hold);
			giveUp(cohort, entry, node, leads);
			if (System.nanoTime() - deadline >= 0) {
				throw new LockAcquisitionException(key,
						"Could not acquire lock '" + AbbreviatedKey.of(key) + "' within " + waitTime.toMillis()
								+ "ms: its lock node was in doubt (a suspended connection, an ended "
								+ "ZooKeeper session or a pause of this process) before it was held",
						null);
			}
			logger.debug("The lock node of '{}' was in doubt before it was held; queueing again",
					AbbreviatedKey.of(key));
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
	private boolean isHeld(LockHold hold, CohortTurn turn, boolean leads) {
		return this.lossDetector.isHeld(hold) && hold.sessionId() == this.lossDetector.currentSessionId()
				&& (leads ? this.lossDetector.unpausedSince(turn.checkedAt())
						: this.lossDetector.undoubtedSince(turn.checkedAt()));
	}

	/**
	 * Gives a hold's node back: it passes to a waiting thread of this process, or stays
	 * with the other holders of its shared node, or is to be deleted.
	 * @param entry the key's entry
	 * @param hold the ended hold
	 * @param handOff whether the node may pass on; {@code false} when its lock may have
	 * been lost
	 * @param checkedAt the {@link LockLossDetector#doubts() doubt count} read before the
	 * hold's lock was found held, for the check that passing it on needs
	 * @return the node to delete, or {@code null} if it stays held
	 */
	@Nullable QueuedNode giveBack(LockEntry entry, LockHold hold, boolean handOff, long checkedAt) {
		LockCohort cohort = entry.cohortOf(hold.kind());
		return (cohort != null) ? cohort.leave(hold.node(), handOff, checkedAt) : hold.node();
	}

	/**
	 * Queues for a lock node in ZooKeeper and waits for its turn, leading the cohort if
	 * there is one: a cohort whose leader fails is led by its next waiter.
	 */
	private CohortTurn lead(@Nullable LockCohort cohort, LockEntry entry, String key, LockNodeKind kind,
			HolderIdentity holder, Duration waitTime, long deadline) throws Exception {
		CohortTurn turn = null;
		try {
			LockQueue.Turn taken = entry.queue.take(kind, holder, waitTime, deadline, this.lossDetector);
			turn = (taken != null) ? new CohortTurn(taken.node(), 0, taken.checkedAt()) : null;
			if (turn == null) {
				throw timeout(entry, key, waitTime, deadline);
			}
			return turn;
		}
		finally {
			if (turn == null && cohort != null) {
				cohort.leadFailed();
			}
		}
	}

	private LockTimeoutException timeout(LockEntry entry, String key, Duration waitTime, long deadline) {
		return new LockTimeoutException(key, waitTime, entry.queue.describeHead(deadline));
	}

	private void giveUp(@Nullable LockCohort cohort, LockEntry entry, QueuedNode node, boolean leads) {
		if (cohort == null) {
			entry.queue.abandon(node);
		}
		else if (leads) {
			entry.queue.abandon(node);
			cohort.leadFailed();
		}
		else {
			QueuedNode released = cohort.leave(node, false, 0);
			if (released != null) {
				entry.queue.abandon(released);
			}
		}
	}

}
