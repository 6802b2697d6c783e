package dev.zklock.zookeeper;

import java.util.ArrayDeque;
import java.util.Deque;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.locks.ReentrantLock;

import dev.zklock.zookeeper.LockQueue.QueuedNode;
import org.jspecify.annotations.Nullable;

/**
 * The threads of this process that want one kind of lock of one key, and the ZooKeeper
 * lock node they share: only one of them at a time queues in ZooKeeper (the leader), the
 * others wait here in order, and a released node passes to the next of them with no
 * ZooKeeper round trip, as far as the {@link HandOffPolicy} allows.
 * <p>
 * Exclusive cohorts pass the node from one holder to the next; shared (read) cohorts let
 * every waiter join the node while it is held. Either way, a node whose bound is reached
 * takes no more holders: the last one to leave releases it to ZooKeeper, and the next
 * waiter leads a new turn, behind the other processes that queued meanwhile. The bounds
 * of the policy apply only while another node may queue behind the cohort's: once a
 * thread waits here, the cohort asks ZooKeeper, once per node, whether one does, and
 * watches the queue for one that comes later. With none behind, the node passes on until
 * the room of its fencing tokens runs out ({@link FencingTokens#MAX_HAND_OFFS}).
 * <p>
 * A node whose lock became uncertain takes no more holders. A node whose lock was lost
 * leaves the cohort at once: its holders keep it until they leave (and it is then
 * released to ZooKeeper), while the next waiter leads a new turn. A lost holder that
 * never leaves thus keeps no thread of this process waiting longer than a thread of
 * another process.
 */
final class LockCohort {

	private final boolean shared;

	private final HandOffPolicy policy;

	private final LockQueue queueWatch;

	private final ReentrantLock lock = new ReentrantLock();

	private final Deque<CohortWaiter> waiters = new ArrayDeque<>();

	private @Nullable QueuedNode node;

	private int holders;

	private int handOffs;

	private long nodeAcquiredAt;

	private long nodeCheckedAt;

	private boolean retired;

	private @Nullable QueuedNode doubtedBeforeLed;

	private @Nullable QueuedNode lostBeforeLed;

	/**
	 * The nodes that left the cohort because their lock was lost, each with the number of
	 * its holders that have not left it yet (at least one).
	 */
	private final Map<QueuedNode, Integer> lostNodes = new HashMap<>();

	private boolean leading;

	/**
	 * Whether another node queues behind the held node: {@code null} until ZooKeeper
	 * told, so that the policy's bounds apply.
	 */
	private @Nullable Boolean othersQueued;

	private boolean askedWhoQueues;

	LockCohort(boolean shared, HandOffPolicy policy, LockQueue queueWatch) {
		this.shared = shared;
		this.policy = policy;
		this.queueWatch = queueWatch;
	}

	/**
	 * Waits for this thread's turn in the cohort: to hold the cohort's node, or to lead
	 * (queue for a node in ZooKeeper). A turn given while the thread is interrupted is
	 * still given, with the interrupt flag set.
	 * @param deadline the deadline, on the {@link System#nanoTime()} scale
	 * @return the turn, or {@code null} if the deadline passed first
	 * @throws InterruptedException if the thread was interrupted before its turn came
	 */
	@Nullable CohortTurn await(long deadline) throws InterruptedException {
		this.lock.lock();
		try {
			if (this.waiters.isEmpty()) {
				CohortTurn turn = nextTurn();
				if (turn != null) {
					return turn;
				}
			}
			CohortWaiter waiter = new CohortWaiter(this.lock.newCondition());
			this.waiters.addLast(waiter);
			askWhoQueues();
			try {
				CohortTurn turn = waiter.await(deadline);
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

	/**
	 * Whether threads wait in this cohort for their turn: a node released now would pass
	 * to one of them.
	 * @return whether any thread waits
	 */
	boolean hasWaiters() {
		this.lock.lock();
		try {
			return !this.waiters.isEmpty();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The leader's node got its turn in ZooKeeper: it is held, and shared cohorts let
	 * their waiters join it.
	 * @param acquired the node
	 * @param checkedAt the {@link LockLossDetector#doubts() doubt count} read before the
	 * leader found its node held
	 */
	void led(QueuedNode acquired, long checkedAt) {
		this.lock.lock();
		try {
			this.leading = false;
			this.node = acquired;
			this.nodeCheckedAt = checkedAt;
			this.holders = 1;
			this.handOffs = 0;
			this.retired = acquired.equals(this.doubtedBeforeLed);
			this.doubtedBeforeLed = null;
			this.nodeAcquiredAt = System.nanoTime();
			this.othersQueued = null;
			this.askedWhoQueues = false;
			if (acquired.equals(this.lostBeforeLed)) {
				detachLostNode();
			}
			this.lostBeforeLed = null;
			askWhoQueues();
			passOn();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * The leader holds no node: its turn did not come in time, or failed. The next waiter
	 * leads.
	 */
	void leadFailed() {
		this.lock.lock();
		try {
			this.leading = false;
			this.doubtedBeforeLed = null;
			this.lostBeforeLed = null;
			passOn();
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Takes no more holders on a node whose lock became uncertain or was lost: its
	 * current holders keep it until they leave, and it is then released to ZooKeeper. A
	 * leader's node may be doubted before the leader reports it {@link #led}.
	 * @param doubted the node
	 */
	void retire(QueuedNode doubted) {
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

	/**
	 * Lets a node whose lock was lost leave the cohort: its current holders keep it until
	 * they leave, and it is then released to ZooKeeper, while the next waiter leads a new
	 * turn. A leader's node may be lost before the leader reports it {@link #led}.
	 * @param lostNode the node
	 */
	void lost(QueuedNode lostNode) {
		this.lock.lock();
		try {
			if (lostNode.equals(this.node)) {
				detachLostNode();
				passOn();
			}
			else if (this.node == null && this.leading) {
				this.lostBeforeLed = lostNode;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	private void detachLostNode() {
		this.lostNodes.put(this.node, this.holders);
		this.node = null;
		this.holders = 0;
		this.retired = false;
	}

	/**
	 * A holder leaves the cohort's node: it passes to the next waiter, or stays with the
	 * other holders of a shared node, or is released. A node that left the cohort because
	 * its lock was lost is released by the last of its holders.
	 * @param held the node the holder leaves
	 * @param handOff whether the node may pass on; {@code false} when its lock may have
	 * been lost
	 * @param checkedAt the {@link LockLossDetector#doubts() doubt count} read before the
	 * leaving holder found its lock held
	 * @return the node to release to ZooKeeper, or {@code null} if it stays held
	 */
	@Nullable QueuedNode leave(QueuedNode held, boolean handOff, long checkedAt) {
		this.lock.lock();
		try {
			if (!held.equals(this.node)) {
				return leaveLostNode(held);
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
			QueuedNode released = this.node;
			this.node = null;
			passOn();
			return released;
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * A holder leaves a node that left the cohort: the last of its holders releases it.
	 */
	private @Nullable QueuedNode leaveLostNode(QueuedNode held) {
		Integer holdersLeft = this.lostNodes.computeIfPresent(held,
				(lostNode, count) -> (count > 1) ? count - 1 : null);
		return (holdersLeft == null) ? held : null;
	}

	/**
	 * Asks ZooKeeper whether another node queues behind the held one, once per node, and
	 * only when a thread waits for it here: a node that no thread waits for is released,
	 * whoever queues behind it.
	 */
	private void askWhoQueues() {
		QueuedNode held = this.node;
		if (held == null || this.askedWhoQueues || this.waiters.isEmpty()) {
			return;
		}
		this.askedWhoQueues = true;
		try {
			this.queueWatch.watchBehind(held, (queued) -> othersQueued(held, queued));
		}
		catch (Exception ex) {
			// not known, so the bounds apply
		}
	}

	/**
	 * ZooKeeper told whether another node queues behind a node: once it does, it does
	 * until the node is released.
	 */
	private void othersQueued(QueuedNode behindOf, boolean queued) {
		this.lock.lock();
		try {
			if (behindOf.equals(this.node) && (queued || this.othersQueued == null)) {
				this.othersQueued = queued;
			}
		}
		finally {
			this.lock.unlock();
		}
	}

	/**
	 * Gives turns to waiters in order, as long as the node can take holders, or one
	 * waiter the lead when there is no node and no leader.
	 */
	private void passOn() {
		while (!this.waiters.isEmpty()) {
			CohortTurn turn = nextTurn();
			if (turn == null) {
				return;
			}
			this.waiters.removeFirst().give(turn);
		}
	}

	private @Nullable CohortTurn nextTurn() {
		QueuedNode held = this.node;
		if (held != null) {
			if (acceptsHolder()) {
				this.holders++;
				this.handOffs++;
				return new CohortTurn(held, this.handOffs, this.nodeCheckedAt);
			}
			return null;
		}
		if (!this.leading) {
			this.leading = true;
			return CohortTurn.LEAD;
		}
		return null;
	}

	private boolean acceptsHolder() {
		boolean withinBounds = this.handOffs < this.policy.maxHandOffs()
				&& System.nanoTime() - this.nodeAcquiredAt < this.policy.maxTimeNanos();
		return (this.shared || this.holders == 0) && !this.retired && this.handOffs < FencingTokens.MAX_HAND_OFFS
				&& (withinBounds || Boolean.FALSE.equals(this.othersQueued));
	}

}
