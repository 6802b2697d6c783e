package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.Condition;
import java.util.concurrent.locks.LockSupport;
import java.util.concurrent.locks.ReentrantLock;

import dev.zklock.AbbreviatedKey;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;

/**
 * Tells the holds of a registry when their locks are lost or uncertain, and applies the
 * {@link LostLockPolicy}. It watches the Curator connection state, and it watches the
 * process itself: a pause (a long garbage collection, a stopped or frozen process) of
 * half the session timeout counts like a suspended connection, because ZooKeeper may have
 * ended the session meanwhile and the client has not noticed yet. A daemon thread of its
 * own, the pause watcher, measures the pauses: it only sleeps and measures, so that a
 * task holding up another thread, such as the registry's scheduler, never looks like a
 * pause.
 * <p>
 * It also tells the application's log about outages of ZooKeeper in a few lines: one when
 * the client has not reached ZooKeeper within its connection timeout since it started,
 * one when an established connection is suspended, one when the session ends, and one
 * when the connection is back. ZooKeeper's own client logs every reconnection attempt,
 * with a stack trace, every second or two; these lines are what an operator needs
 * instead.
 */
final class LockLossDetector implements AutoCloseable {

	private static final Logger logger = LoggerFactory.getLogger(LockLossDetector.class);

	/** How often the detector checks that the process is not paused. */
	static final Duration TICK = Duration.ofMillis(100);

	private static final AtomicLong WATCHERS = new AtomicLong();

	private final CuratorFramework client;

	private final LostLockPolicy policy;

	private final Set<LockKey.Hold> holds = ConcurrentHashMap.newKeySet();

	/**
	 * When the process was last seen running: the pause watcher refreshes it every
	 * {@link #TICK}, and so does every caller that measures a pause. As the pause watcher
	 * only sleeps and measures, a gap longer than a few ticks means the whole process
	 * stood still (a garbage collection, {@code SIGSTOP}, a frozen machine).
	 */
	private final AtomicLong lastSeenRunning = new AtomicLong(System.nanoTime());

	private final AtomicLong doubts = new AtomicLong();

	private final AtomicLong pauses = new AtomicLong();

	private final ReentrantLock connectionLossLock = new ReentrantLock();

	private final Condition connectionLossCounted = this.connectionLossLock.newCondition();

	/**
	 * The losses of the connection (suspended, read-only or lost) that Curator announced
	 * to its listeners, guarded by {@link #connectionLossLock}. Curator's connection
	 * state is updated before the announcement, so once a loss is counted here, the state
	 * no longer reads as the connection from before it.
	 */
	private long connectionLosses;

	private final ConnectionStateListener connectionStateListener = (source, state) -> connectionStateChanged(state);

	private final String heldLocksDuringSuspension;

	/**
	 * What the outage lines begin with: nothing for a registry's one session, and which
	 * session it is for one of several, whose lines would read alike.
	 */
	private final String sessionLabel;

	private final ScheduledFuture<?> firstConnectionCheck;

	/** Whether a session was ever established; guarded by {@link #outageLog}. */
	private boolean connectedOnce;

	/** Whether the current outage was reported; guarded by {@link #outageLog}. */
	private boolean outageReported;

	private final Object outageLog = new Object();

	private final Thread pauseWatcher;

	private volatile boolean closed;

	/** Runs just before a confirmation makes the holds certain: a seam for tests. */
	private volatile Runnable beforeMarkingCertain = () -> {
	};

	LockLossDetector(CuratorFramework client, LostLockPolicy policy, ScheduledExecutorService scheduler) {
		this(client, policy, scheduler, "");
	}

	/**
	 * Creates the detector of one of a registry's sessions.
	 * @param sessionLabel what its outage lines begin with, such as
	 * {@code "Lock session 2 of 4: "}, or empty
	 */
	LockLossDetector(CuratorFramework client, LostLockPolicy policy, ScheduledExecutorService scheduler,
			String sessionLabel) {
		this.client = client;
		this.sessionLabel = sessionLabel;
		this.policy = policy;
		this.heldLocksDuringSuspension = (policy.trigger() == LostLockPolicy.Trigger.SUSPENDED) ? "lost" : "uncertain";
		this.connectedOnce = client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs() > 0;
		this.firstConnectionCheck = scheduler.schedule(this::reportMissingFirstConnection,
				client.getZookeeperClient().getConnectionTimeoutMs(), TimeUnit.MILLISECONDS);
		client.getConnectionStateListenable().addListener(this.connectionStateListener);
		this.pauseWatcher = new Thread(this::watchForPauses, "zklock-pause-watcher-" + WATCHERS.incrementAndGet());
		this.pauseWatcher.setDaemon(true);
		this.pauseWatcher.start();
	}

	LostLockPolicy policy() {
		return this.policy;
	}

	/**
	 * Starts telling a hold about losses. Call before checking that the hold's session is
	 * the current one, so that no event falls between the two.
	 */
	void register(LockKey.Hold hold) {
		this.holds.add(hold);
	}

	void unregister(LockKey.Hold hold) {
		this.holds.remove(hold);
	}

	/** The holds being watched: every lock this registry holds now. */
	Collection<LockKey.Hold> holds() {
		return Collections.unmodifiableSet(this.holds);
	}

	/**
	 * Whether the hold's lock is held as far as this process can tell now. Under the
	 * {@link LostLockPolicy.Trigger#SUSPENDED} trigger, finding the connection down
	 * declares the lock lost; finding the client connected in another session than the
	 * hold's always does. Curator marks the client connected on ZooKeeper's event thread
	 * but tells this detector of the ended session on its listener thread, behind the
	 * application's listeners: until then, only the sessions show that the hold's node is
	 * gone. A session that cannot be read (Curator had an error to report) proves nothing
	 * either way.
	 */
	boolean isHeld(LockKey.Hold hold) {
		checkForPause();
		if (hold.lossReason() != null) {
			return false;
		}
		if (!this.client.getZookeeperClient().isConnected()) {
			this.doubts.incrementAndGet();
			if (this.policy.trigger() == LostLockPolicy.Trigger.SUSPENDED) {
				lose(hold, "the connection to ZooKeeper was suspended");
			}
			else {
				hold.invalidated("the connection to ZooKeeper was suspended");
			}
			return false;
		}
		long session = currentSessionId();
		if (session != 0 && session != hold.sessionId()) {
			lose(hold, "the ZooKeeper session that held it ended");
			return false;
		}
		return !hold.isUncertain();
	}

	/**
	 * Counts the doubts raised so far about every lock of this process: suspended or lost
	 * connections, and pauses of the process. Read it before checking that a lock node is
	 * held, and pass it to {@link #undoubtedSince(long)} to learn whether that check
	 * still stands.
	 */
	long doubts() {
		return this.doubts.get();
	}

	/**
	 * Whether no doubt was raised since {@link #doubts()} returned the given count,
	 * counting a pause of the process up to now: a lock node checked before then may pass
	 * to another holder of this process.
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
	 */
	long pauses() {
		return this.pauses.get();
	}

	/**
	 * Whether no pause was detected since {@link #pauses()} returned the given count,
	 * counting a pause up to now.
	 */
	boolean unpausedSince(long pauses) {
		checkForPause();
		return this.pauses.get() == pauses;
	}

	/**
	 * Counts the losses of the connection that Curator has announced so far. Read it
	 * before sending a request, and pass it to {@link #awaitConnectionLossAfter} when the
	 * request or a watch tells of a lost connection.
	 */
	long connectionLosses() {
		this.connectionLossLock.lock();
		try {
			return this.connectionLosses;
		}
		finally {
			this.connectionLossLock.unlock();
		}
	}

	/**
	 * Waits until Curator has announced a loss of the connection after the given
	 * {@link #connectionLosses() count}, or the timeout passes. ZooKeeper tells a watch
	 * of a lost connection possibly before it tells Curator: until Curator announced it,
	 * its connection state may still read as connected, and a request sent then goes out
	 * into the outage, where Curator gives it up with an error in the log.
	 */
	void awaitConnectionLossAfter(long seen, long timeoutNanos) throws InterruptedException {
		long remaining = timeoutNanos;
		this.connectionLossLock.lock();
		try {
			while (this.connectionLosses == seen && remaining > 0) {
				remaining = this.connectionLossCounted.awaitNanos(remaining);
			}
		}
		finally {
			this.connectionLossLock.unlock();
		}
	}

	private void countConnectionLoss() {
		this.connectionLossLock.lock();
		try {
			this.connectionLosses++;
			this.connectionLossCounted.signalAll();
		}
		finally {
			this.connectionLossLock.unlock();
		}
	}

	/** The session of this client's connection, or {@code 0} while there is none. */
	long currentSessionId() {
		try {
			return this.client.getZookeeperClient().getZooKeeper().getSessionId();
		}
		catch (Exception ex) {
			return 0;
		}
	}

	private void connectionStateChanged(ConnectionState state) {
		logOutage(state);
		switch (state) {
			case SUSPENDED, READ_ONLY -> {
				countConnectionLoss();
				becameUncertain("the connection to ZooKeeper was suspended");
			}
			case LOST -> {
				countConnectionLoss();
				loseAll("the ZooKeeper session was lost");
			}
			case CONNECTED, RECONNECTED -> reconnected();
		}
	}

	/**
	 * Loses the holds of a session that ended, and asks ZooKeeper to confirm the others:
	 * the event that announced the connection may have been raised before a pause that
	 * this listener runs after, so only an answer asked for now makes them certain.
	 */
	private void reconnected() {
		long session = currentSessionId();
		for (LockKey.Hold hold : this.holds) {
			if (hold.sessionId() != session) {
				lose(hold, "the ZooKeeper session that held it ended");
			}
		}
		confirmSession();
	}

	/**
	 * The pause watcher: sleeps a {@link #TICK} at a time and measures how long it was
	 * away. Besides that it only handles the pauses it finds (marks, a log line, a
	 * request sent without waiting for its answer), so nothing but a pause of the whole
	 * process keeps it from running for long.
	 */
	private void watchForPauses() {
		while (!this.closed) {
			LockSupport.parkNanos(this, TICK.toNanos());
			checkForPause();
		}
	}

	/**
	 * Measures the time since the process was last seen running, and handles a pause
	 * before recording that it runs again: whoever sees the recorded time afterwards also
	 * sees the pause's effects, and whoever saw the earlier time handles the pause too.
	 * The clock is read before the recorded time, so a caller held up between the two
	 * reads finds a shorter gap, never a pause that did not stop the pause watcher.
	 */
	private void checkForPause() {
		if (this.closed) {
			return;
		}
		long now = System.nanoTime();
		long pause = now - this.lastSeenRunning.get();
		int sessionTimeoutMs = this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
		if (sessionTimeoutMs > 0 && pause > TimeUnit.MILLISECONDS.toNanos(sessionTimeoutMs) / 2) {
			pauseDetected(TimeUnit.NANOSECONDS.toMillis(pause), sessionTimeoutMs);
		}
		this.lastSeenRunning.accumulateAndGet(now, Math::max);
	}

	/**
	 * Handles a pause of the process long enough for ZooKeeper to have ended the session.
	 * Package-private as a seam for tests that detect a pause at a chosen moment.
	 */
	void pauseDetected(long pauseMillis, int sessionTimeoutMs) {
		this.pauses.incrementAndGet();
		becameUncertain("this process was paused for " + pauseMillis
				+ "ms, long enough for ZooKeeper to end a session of " + sessionTimeoutMs + "ms");
		if (this.policy.trigger() == LostLockPolicy.Trigger.LOST) {
			confirmSession();
		}
	}

	void beforeMarkingCertain(Runnable hook) {
		this.beforeMarkingCertain = hook;
	}

	private void becameUncertain(String reason) {
		this.doubts.incrementAndGet();
		if (this.policy.trigger() == LostLockPolicy.Trigger.SUSPENDED) {
			loseAll(reason);
		}
		else {
			this.holds.forEach((hold) -> {
				hold.markUncertain();
				hold.invalidated(reason);
			});
		}
	}

	/**
	 * Asks ZooKeeper whether the session survives, and makes each uncertain hold certain
	 * again if it answers in the hold's session: certain of the doubt generation the hold
	 * had when asked, so a doubt raised since, even while the answer is handled, stays.
	 * It asks only while connected, and straight through ZooKeeper's client rather than
	 * Curator's retries: during an outage it does not ask, and a request cut by one is
	 * dropped without a word, as the {@code RECONNECTED} that ends the outage asks again.
	 */
	private void confirmSession() {
		if (this.closed || !this.client.getZookeeperClient().isConnected()) {
			return;
		}
		Map<LockKey.Hold, Long> generations = new HashMap<>();
		for (LockKey.Hold hold : this.holds) {
			if (hold.isUncertain()) {
				generations.put(hold, hold.doubtGeneration());
			}
		}
		if (generations.isEmpty()) {
			return;
		}
		try {
			ZooKeeper zooKeeper = this.client.getZookeeperClient().getZooKeeper();
			zooKeeper.exists("/", false, (resultCode, path, context, stat) -> {
				if (resultCode == KeeperException.Code.OK.intValue()
						|| resultCode == KeeperException.Code.NONODE.intValue()) {
					confirmed(zooKeeper.getSessionId(), generations);
				}
			}, null);
		}
		catch (Exception ex) {
			logger.debug("Could not ask ZooKeeper whether the session survives: {}", ex.toString());
		}
	}

	private void confirmed(long session, Map<LockKey.Hold, Long> generations) {
		this.beforeMarkingCertain.run();
		generations.forEach((hold, generation) -> {
			if (hold.sessionId() != session) {
				lose(hold, "the ZooKeeper session that held it ended");
			}
			else {
				hold.markCertain(generation);
			}
		});
	}

	private void loseAll(String reason) {
		this.doubts.incrementAndGet();
		this.holds.forEach((hold) -> lose(hold, reason));
	}

	private void lose(LockKey.Hold hold, String reason) {
		if (hold.markLost(reason)) {
			logger.warn("Lock '{}' (fencing token {}) is lost: {}{}", AbbreviatedKey.of(hold.key()),
					hold.fencingToken(), reason, this.policy.interruptsHolder() ? "; interrupting its holder" : "");
			if (this.policy.interruptsHolder()) {
				hold.interruptHolder();
			}
			hold.invalidated(reason);
		}
	}

	/** Logs what a change of the connection's state means for locking, if anything. */
	private void logOutage(ConnectionState state) {
		synchronized (this.outageLog) {
			switch (state) {
				case SUSPENDED, READ_ONLY -> {
					if (this.connectedOnce) {
						reportOutage(
								"The connection to ZooKeeper ({}) is suspended; locks cannot be taken until it "
										+ "is back, and held locks are {}",
								connectString(), this.heldLocksDuringSuspension);
					}
					else {
						reportMissingFirstConnection();
					}
				}
				case LOST -> {
					this.outageReported = true;
					logger.warn("{}The ZooKeeper session of this client ended; its locks are lost", this.sessionLabel);
				}
				case CONNECTED, RECONNECTED -> {
					if (this.outageReported) {
						String again = this.connectedOnce ? " again" : "";
						logger.info("{}Connected to ZooKeeper ({}){}; locking works{}", this.sessionLabel,
								connectString(), again, again);
					}
					this.connectedOnce = true;
					this.outageReported = false;
					this.firstConnectionCheck.cancel(false);
				}
			}
		}
	}

	private void reportMissingFirstConnection() {
		synchronized (this.outageLog) {
			if (!this.connectedOnce && this.client.getState() == CuratorFrameworkState.STARTED
					&& !this.client.getZookeeperClient().isConnected()) {
				reportOutage(
						"No connection to ZooKeeper ({}) within {}ms of starting; locks fail with "
								+ "LockAcquisitionException until ZooKeeper is reachable",
						connectString(), this.client.getZookeeperClient().getConnectionTimeoutMs());
			}
		}
	}

	private void reportOutage(String message, Object... arguments) {
		if (!this.outageReported) {
			this.outageReported = true;
			logger.warn(this.sessionLabel + message, arguments);
		}
	}

	private String connectString() {
		return this.client.getZookeeperClient().getCurrentConnectionString();
	}

	@Override
	public void close() {
		this.closed = true;
		LockSupport.unpark(this.pauseWatcher);
		this.firstConnectionCheck.cancel(false);
		this.client.getConnectionStateListenable().removeListener(this.connectionStateListener);
	}

}
