package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

import dev.zklock.AbbreviatedKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.api.CuratorEvent;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;

/**
 * Tells the holds of a registry when their locks are lost or uncertain, and applies the
 * {@link LostLockPolicy}. It watches the Curator connection state, and it watches the
 * process itself: a pause (a long garbage collection, a stopped or frozen process) of
 * half the session timeout counts like a suspended connection, because ZooKeeper may have
 * ended the session meanwhile and the client has not noticed yet.
 */
final class LockLossDetector implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(LockLossDetector.class);

	/**
	 * How often the detector checks that the process is not paused.
	 */
	static final Duration TICK = Duration.ofMillis(100);

	private final CuratorFramework client;

	private final LostLockPolicy policy;

	private final Set<LockHold> holds = ConcurrentHashMap.newKeySet();

	private final AtomicLong lastSeenRunning = new AtomicLong(System.nanoTime());

	private final AtomicLong doubts = new AtomicLong();

	private final AtomicLong pauses = new AtomicLong();

	private final ConnectionStateListener connectionStateListener = (source, state) -> connectionStateChanged(state);

	private final ScheduledFuture<?> ticks;

	private final ConnectionOutageLog outageLog;

	LockLossDetector(CuratorFramework client, LostLockPolicy policy, ScheduledExecutorService scheduler) {
		this.client = client;
		this.policy = policy;
		this.outageLog = new ConnectionOutageLog(client, policy.trigger() == LostLockPolicy.Trigger.SUSPENDED,
				scheduler);
		client.getConnectionStateListenable().addListener(this.connectionStateListener);
		this.ticks = scheduler.scheduleWithFixedDelay(this::checkForPause, TICK.toNanos(), TICK.toNanos(),
				TimeUnit.NANOSECONDS);
	}

	LostLockPolicy policy() {
		return this.policy;
	}

	/**
	 * Starts telling a hold about losses. Call before checking that the hold's session is
	 * the current one, so that no event falls between the two.
	 * @param hold the hold
	 */
	void register(LockHold hold) {
		this.holds.add(hold);
	}

	void unregister(LockHold hold) {
		this.holds.remove(hold);
	}

	/**
	 * The holds being watched: every lock this registry holds now.
	 * @return the holds
	 */
	Collection<LockHold> holds() {
		return Collections.unmodifiableSet(this.holds);
	}

	/**
	 * Whether the hold's lock is held as far as this process can tell now. Under the
	 * {@link LostLockPolicy.Trigger#SUSPENDED} trigger, finding the connection down
	 * declares the lock lost.
	 * @param hold the hold
	 * @return whether the lock is held
	 */
	boolean isHeld(LockHold hold) {
		checkForPause();
		if (hold.lossReason() != null) {
			return false;
		}
		if (!this.client.getZookeeperClient().isConnected()) {
			this.doubts.incrementAndGet();
			if (this.policy.trigger() == LostLockPolicy.Trigger.SUSPENDED) {
				lose(hold, "the connection to ZooKeeper was suspended");
			}
			return false;
		}
		return !hold.isUncertain();
	}

	/**
	 * Counts the doubts raised so far about every lock of this process: suspended or lost
	 * connections, and pauses of the process. Read it before checking that a lock node is
	 * held, and pass it to {@link #undoubtedSince(long)} to learn whether that check
	 * still stands.
	 * @return the number of doubts raised so far
	 */
	long doubts() {
		return this.doubts.get();
	}

	/**
	 * Whether no doubt was raised since {@link #doubts()} returned the given count,
	 * counting a pause of the process up to now: a lock node checked before then may pass
	 * to another holder of this process.
	 * @param doubts the count read before the node was checked
	 * @return whether no doubt was raised since
	 */
	boolean undoubtedSince(long doubts) {
		checkForPause();
		return this.doubts.get() == doubts;
	}

	/**
	 * Counts the pauses of this process detected so far. A pause is the one doubt that a
	 * look at the connection cannot rule out: ZooKeeper may have ended the session
	 * meanwhile while the client still looks connected in it. Read it before asking
	 * ZooKeeper whether a lock node's turn came, and pass it to
	 * {@link #unpausedSince(long)} once the node is registered.
	 * @return the number of pauses detected so far
	 */
	long pauses() {
		return this.pauses.get();
	}

	/**
	 * Whether no pause was detected since {@link #pauses()} returned the given count,
	 * counting a pause up to now.
	 * @param pauses the count read before ZooKeeper was asked
	 * @return whether the process did not pause since
	 */
	boolean unpausedSince(long pauses) {
		checkForPause();
		return this.pauses.get() == pauses;
	}

	/**
	 * The session of this client's connection.
	 * @return the session id, or {@code 0} while there is none
	 */
	long currentSessionId() {
		try {
			return this.client.getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	private void connectionStateChanged(ConnectionState state) {
		this.outageLog.stateChanged(state);
		switch (state) {
			case SUSPENDED, READ_ONLY -> becameUncertain("the connection to ZooKeeper was suspended");
			case LOST -> loseAll("the ZooKeeper session was lost");
			case CONNECTED, RECONNECTED -> reconnected();
		}
	}

	private void reconnected() {
		long session = currentSessionId();
		for (LockHold hold : this.holds) {
			if (hold.sessionId() != session) {
				lose(hold, "the ZooKeeper session that held it ended");
			}
			else {
				hold.markCertain();
			}
		}
	}

	/**
	 * Measures the time since the process was last seen running, and handles a pause
	 * before recording that it runs again: whoever sees the recorded time afterwards also
	 * sees the pause's effects, and whoever saw the earlier time handles the pause too.
	 */
	private void checkForPause() {
		long now = System.nanoTime();
		long pause = now - this.lastSeenRunning.get();
		int sessionTimeoutMs = this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
		if (sessionTimeoutMs > 0 && pause > TimeUnit.MILLISECONDS.toNanos(sessionTimeoutMs) / 2) {
			this.pauses.incrementAndGet();
			becameUncertain("this process was paused for " + TimeUnit.NANOSECONDS.toMillis(pause)
					+ "ms, long enough for ZooKeeper to end a session of " + sessionTimeoutMs + "ms");
			if (this.policy.trigger() == LostLockPolicy.Trigger.LOST) {
				confirmSessionAfterPause();
			}
		}
		this.lastSeenRunning.accumulateAndGet(now, Math::max);
	}

	private void becameUncertain(String reason) {
		this.doubts.incrementAndGet();
		if (this.policy.trigger() == LostLockPolicy.Trigger.SUSPENDED) {
			loseAll(reason);
		}
		else {
			this.holds.forEach(LockHold::markUncertain);
		}
	}

	/**
	 * Asks ZooKeeper whether the session survived a pause: an answer in the same session,
	 * with no other doubt raised meanwhile, makes the holds certain again.
	 */
	private void confirmSessionAfterPause() {
		long events = this.doubts.get();
		try {
			this.client.checkExists().inBackground((client, event) -> {
				if (answered(event) && this.doubts.get() == events) {
					reconnected();
				}
			}).forPath("/");
		}
		catch (Exception ex) {
			logger.debug("Could not ask ZooKeeper whether the session survived a pause", ex);
		}
	}

	private static boolean answered(CuratorEvent event) {
		return event.getResultCode() == KeeperException.Code.OK.intValue()
				|| event.getResultCode() == KeeperException.Code.NONODE.intValue();
	}

	private void loseAll(String reason) {
		this.doubts.incrementAndGet();
		this.holds.forEach((hold) -> lose(hold, reason));
	}

	private void lose(LockHold hold, String reason) {
		if (hold.markLost(reason)) {
			logger.warn("Lock '" + AbbreviatedKey.of(hold.key()) + "' (fencing token " + hold.fencingToken()
					+ ") is lost: " + reason + (this.policy.interruptsHolder() ? "; interrupting its holder" : ""));
			if (this.policy.interruptsHolder()) {
				hold.interruptHolder();
			}
		}
	}

	@Override
	public void close() {
		this.ticks.cancel(false);
		this.outageLog.close();
		this.client.getConnectionStateListenable().removeListener(this.connectionStateListener);
	}

}
