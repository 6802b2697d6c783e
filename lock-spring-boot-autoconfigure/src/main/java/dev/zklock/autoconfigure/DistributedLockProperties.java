package dev.zklock.autoconfigure;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

import dev.zklock.zookeeper.HandOffPolicy;
import dev.zklock.zookeeper.LostLockPolicy;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * Configuration properties of distributed locks.
 */
@ConfigurationProperties("distributed-lock")
public class DistributedLockProperties {

	/**
	 * ZooKeeper path under which the lock nodes are created, one child per key.
	 */
	private String rootPath = "/locks";

	/**
	 * Time to wait for a lock when the annotation or the template call names none.
	 */
	private Duration waitTime = Duration.ofSeconds(5);

	/**
	 * Whether the lock of a method that is also @Transactional wraps its transaction
	 * (acquire, begin, commit, release), so that the next holder sees committed data;
	 * false puts the lock inside the transaction instead.
	 */
	private boolean wrapTransaction = true;

	private final LostLock lostLock = new LostLock();

	private final Startup startup = new Startup();

	private final HandOff handOff = new HandOff();

	public String getRootPath() {
		return this.rootPath;
	}

	public void setRootPath(String rootPath) {
		this.rootPath = rootPath;
	}

	public Duration getWaitTime() {
		return this.waitTime;
	}

	public void setWaitTime(Duration waitTime) {
		this.waitTime = waitTime;
	}

	public boolean isWrapTransaction() {
		return this.wrapTransaction;
	}

	public void setWrapTransaction(boolean wrapTransaction) {
		this.wrapTransaction = wrapTransaction;
	}

	public LostLock getLostLock() {
		return this.lostLock;
	}

	public Startup getStartup() {
		return this.startup;
	}

	public HandOff getHandOff() {
		return this.handOff;
	}

	/**
	 * How a released lock passes to the threads of this process that wait for it.
	 */
	public static class HandOff {

		/**
		 * Whether a released lock passes to a thread of this process that waits for it,
		 * with no ZooKeeper round trip (lock cohorting); false queues every thread in
		 * ZooKeeper.
		 */
		private boolean enabled = true;

		/**
		 * Most hand-offs of one ZooKeeper lock in a row before it is released to
		 * ZooKeeper, so that other processes get their turn; at most 4095, the most that
		 * fencing tokens can count.
		 */
		private int maxCount = HandOffPolicy.defaults().maxHandOffs();

		/**
		 * Longest time after its ZooKeeper acquisition during which a lock is still
		 * handed off; later releases go to ZooKeeper, so that other processes get their
		 * turn.
		 */
		private Duration maxTime = HandOffPolicy.defaults().maxTime();

		public boolean isEnabled() {
			return this.enabled;
		}

		public void setEnabled(boolean enabled) {
			this.enabled = enabled;
		}

		public int getMaxCount() {
			return this.maxCount;
		}

		public void setMaxCount(int maxCount) {
			this.maxCount = maxCount;
		}

		public Duration getMaxTime() {
			return this.maxTime;
		}

		public void setMaxTime(Duration maxTime) {
			this.maxTime = maxTime;
		}

		HandOffPolicy toPolicy() {
			if (this.maxCount < 0 || this.maxCount > HandOffPolicy.MAX_HAND_OFFS) {
				throw new InvalidConfigurationPropertyValueException("distributed-lock.hand-off.max-count",
						this.maxCount, "The most hand-offs in a row must be between 0 and "
								+ HandOffPolicy.MAX_HAND_OFFS + ", the most that fencing tokens can count.");
			}
			if (this.maxTime.isNegative()) {
				throw new InvalidConfigurationPropertyValueException("distributed-lock.hand-off.max-time", this.maxTime,
						"The hand-off time budget must not be negative.");
			}
			return new HandOffPolicy(this.enabled, this.maxCount, this.maxTime);
		}

	}

	/**
	 * What start-up does about the ZooKeeper connection.
	 */
	public static class Startup {

		/**
		 * How long start-up waits for a connection to ZooKeeper; 0 does not wait (locks
		 * then fail with LockAcquisitionException until ZooKeeper is reachable).
		 */
		private Duration connectionWait = Duration.ZERO;

		/**
		 * Whether start-up fails when ZooKeeper was not reached within the connection
		 * wait, rather than logging a warning and starting anyway.
		 */
		private boolean failWithoutConnection;

		public Duration getConnectionWait() {
			return this.connectionWait;
		}

		public void setConnectionWait(Duration connectionWait) {
			this.connectionWait = connectionWait;
		}

		public boolean isFailWithoutConnection() {
			return this.failWithoutConnection;
		}

		public void setFailWithoutConnection(boolean failWithoutConnection) {
			this.failWithoutConnection = failWithoutConnection;
		}

	}

	/**
	 * What counts as losing a held lock, and what happens to its holder then.
	 */
	public static class LostLock {

		/**
		 * Event from which a held lock counts as lost: 'suspended' (the connection to
		 * ZooKeeper is suspended or the process paused for half the session timeout;
		 * safe) or 'lost' (the session ended).
		 */
		private LostLockPolicy.Trigger trigger = LostLockPolicy.Trigger.SUSPENDED;

		/**
		 * What happens to a holder whose lock was lost: 'interrupt' its thread, and/or
		 * 'raise' LockLostException when the protected code returns; empty for nothing.
		 */
		private Set<LostLockPolicy.Action> actions = EnumSet.of(LostLockPolicy.Action.RAISE);

		public LostLockPolicy.Trigger getTrigger() {
			return this.trigger;
		}

		public void setTrigger(LostLockPolicy.Trigger trigger) {
			this.trigger = trigger;
		}

		public Set<LostLockPolicy.Action> getActions() {
			return this.actions;
		}

		public void setActions(Set<LostLockPolicy.Action> actions) {
			this.actions = actions;
		}

		LostLockPolicy toPolicy() {
			return new LostLockPolicy(this.trigger, this.actions);
		}

	}

}
