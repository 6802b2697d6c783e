package dev.zklock.leadership;

import dev.zklock.zookeeper.LeaderElection;
import dev.zklock.zookeeper.LeaderTerm;
import dev.zklock.zookeeper.LeadershipListener;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.SmartLifecycle;

/**
 * Joins this instance to a {@link LeaderElection} while the application context runs, and
 * publishes a {@link LeadershipGrantedEvent} and a {@link LeadershipRevokedEvent} for
 * each of its terms, on the election's thread. Stopping it revokes the current term
 * (after the revoked event's listeners returned, the election's lock is released) and
 * leaves the election; starting it again joins anew.
 */
public class LeadershipInitiator implements SmartLifecycle {

	/**
	 * The initiator's phase: late, so that the beans a leader uses start before it joins,
	 * and it leaves before they stop.
	 */
	public static final int DEFAULT_PHASE = Integer.MAX_VALUE - 1000;

	private final ZooKeeperLockRegistry registry;

	private final String name;

	private final ApplicationEventPublisher publisher;

	private final LeadershipListener listener = new LeadershipListener() {

		@Override
		public void granted(LeaderTerm term) {
			LeadershipInitiator.this.publisher.publishEvent(new LeadershipGrantedEvent(LeadershipInitiator.this, term));
		}

		@Override
		public void revoked(LeaderTerm term, String reason) {
			LeadershipInitiator.this.publisher
				.publishEvent(new LeadershipRevokedEvent(LeadershipInitiator.this, term, reason));
		}

	};

	private boolean autoStartup = true;

	/** The election joined since the last start, guarded by {@code this}. */
	private @Nullable LeaderElection election;

	/**
	 * Creates an initiator.
	 * @param registry the registry whose locks hold the election
	 * @param name the election's name, shared by the candidates of all instances
	 * @param publisher where the events go
	 * @throws IllegalArgumentException if an argument is {@code null}, or the name blank
	 */
	public LeadershipInitiator(ZooKeeperLockRegistry registry, String name, ApplicationEventPublisher publisher) {
		if (registry == null) {
			throw new IllegalArgumentException("'registry' must not be null");
		}
		if (name == null || name.isBlank()) {
			throw new IllegalArgumentException("Election name must not be null or blank");
		}
		if (publisher == null) {
			throw new IllegalArgumentException("'publisher' must not be null");
		}
		this.registry = registry;
		this.name = name;
		this.publisher = publisher;
	}

	/**
	 * The election's name.
	 * @return the name
	 */
	public String getName() {
		return this.name;
	}

	/**
	 * Sets whether the initiator joins the election when the application context starts
	 * ({@code distributed-lock.leadership.auto-startup}); {@code true} by default.
	 * @param autoStartup whether to join at start-up
	 */
	public void setAutoStartup(boolean autoStartup) {
		this.autoStartup = autoStartup;
	}

	@Override
	public boolean isAutoStartup() {
		return this.autoStartup;
	}

	@Override
	public int getPhase() {
		return DEFAULT_PHASE;
	}

	@Override
	public synchronized void start() {
		if (this.election == null) {
			LeaderElection joined = new LeaderElection(this.registry, this.name, this.listener);
			joined.start();
			this.election = joined;
		}
	}

	@Override
	public void stop() {
		LeaderElection left;
		synchronized (this) {
			left = this.election;
			this.election = null;
		}
		if (left != null) {
			left.close();
		}
	}

	@Override
	public synchronized boolean isRunning() {
		return this.election != null;
	}

	/**
	 * Whether this instance leads now.
	 * @return whether it has a term that is still valid
	 */
	public boolean isLeader() {
		LeaderElection current = currentElection();
		return current != null && current.isLeader();
	}

	/**
	 * The term this instance leads, if it leads now.
	 * @return the term, or {@code null}
	 */
	public @Nullable LeaderTerm currentTerm() {
		LeaderElection current = currentElection();
		return (current != null) ? current.currentTerm() : null;
	}

	/**
	 * Gives up the current term, if this instance leads, and joins the election again.
	 * @return whether this instance led
	 * @see LeaderElection#yieldLeadership()
	 */
	public boolean yieldLeadership() {
		LeaderElection current = currentElection();
		return current != null && current.yieldLeadership();
	}

	private synchronized @Nullable LeaderElection currentElection() {
		return this.election;
	}

}
