package dev.zklock.autoconfigure;

import java.time.Duration;
import java.util.EnumSet;
import java.util.Set;

import dev.zklock.zookeeper.LostLockPolicy;

import org.springframework.boot.context.properties.ConfigurationProperties;
import org.springframework.boot.context.properties.NestedConfigurationProperty;

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

	@NestedConfigurationProperty
	private final HandOffProperties handOff = new HandOffProperties();

	/**
	 * The ZooKeeper path under which the lock nodes are created
	 * ({@code distributed-lock.root-path}).
	 * @return the root path
	 */
	public String getRootPath() {
		return this.rootPath;
	}

	/**
	 * Sets the ZooKeeper path under which the lock nodes are created
	 * ({@code distributed-lock.root-path}).
	 * @param rootPath the root path
	 */
	public void setRootPath(String rootPath) {
		this.rootPath = rootPath;
	}

	/**
	 * The time to wait for a lock when the annotation or the template call names none
	 * ({@code distributed-lock.wait-time}).
	 * @return the wait time
	 */
	public Duration getWaitTime() {
		return this.waitTime;
	}

	/**
	 * Sets the time to wait for a lock when the annotation or the template call names
	 * none ({@code distributed-lock.wait-time}).
	 * @param waitTime the wait time
	 */
	public void setWaitTime(Duration waitTime) {
		this.waitTime = waitTime;
	}

	/**
	 * Whether the lock of a {@code @Transactional} method wraps its transaction
	 * ({@code distributed-lock.wrap-transaction}).
	 * @return whether the lock wraps the transaction
	 */
	public boolean isWrapTransaction() {
		return this.wrapTransaction;
	}

	/**
	 * Sets whether the lock of a {@code @Transactional} method wraps its transaction
	 * ({@code distributed-lock.wrap-transaction}).
	 * @param wrapTransaction whether the lock wraps the transaction
	 */
	public void setWrapTransaction(boolean wrapTransaction) {
		this.wrapTransaction = wrapTransaction;
	}

	/**
	 * What counts as losing a held lock, and what happens to its holder then
	 * ({@code distributed-lock.lost-lock.*}).
	 * @return the lost-lock properties
	 */
	public LostLock getLostLock() {
		return this.lostLock;
	}

	/**
	 * What start-up does about the ZooKeeper connection
	 * ({@code distributed-lock.startup.*}).
	 * @return the start-up properties
	 */
	public Startup getStartup() {
		return this.startup;
	}

	/**
	 * How a released lock passes to the threads of this process that wait for it
	 * ({@code distributed-lock.hand-off.*}).
	 * @return the hand-off properties
	 */
	public HandOffProperties getHandOff() {
		return this.handOff;
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

		/**
		 * How long start-up waits for a connection to ZooKeeper
		 * ({@code distributed-lock.startup.connection-wait}).
		 * @return the connection wait
		 */
		public Duration getConnectionWait() {
			return this.connectionWait;
		}

		/**
		 * Sets how long start-up waits for a connection to ZooKeeper
		 * ({@code distributed-lock.startup.connection-wait}).
		 * @param connectionWait the connection wait
		 */
		public void setConnectionWait(Duration connectionWait) {
			this.connectionWait = connectionWait;
		}

		/**
		 * Whether start-up fails when ZooKeeper was not reached within the connection
		 * wait ({@code distributed-lock.startup.fail-without-connection}).
		 * @return whether start-up fails without a connection
		 */
		public boolean isFailWithoutConnection() {
			return this.failWithoutConnection;
		}

		/**
		 * Sets whether start-up fails when ZooKeeper was not reached within the
		 * connection wait ({@code distributed-lock.startup.fail-without-connection}).
		 * @param failWithoutConnection whether start-up fails without a connection
		 */
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

		/**
		 * The event from which a held lock counts as lost
		 * ({@code distributed-lock.lost-lock.trigger}).
		 * @return the trigger
		 */
		public LostLockPolicy.Trigger getTrigger() {
			return this.trigger;
		}

		/**
		 * Sets the event from which a held lock counts as lost
		 * ({@code distributed-lock.lost-lock.trigger}).
		 * @param trigger the trigger
		 */
		public void setTrigger(LostLockPolicy.Trigger trigger) {
			this.trigger = trigger;
		}

		/**
		 * What happens to a holder whose lock was lost
		 * ({@code distributed-lock.lost-lock.actions}).
		 * @return the actions
		 */
		public Set<LostLockPolicy.Action> getActions() {
			return this.actions;
		}

		/**
		 * Sets what happens to a holder whose lock was lost
		 * ({@code distributed-lock.lost-lock.actions}).
		 * @param actions the actions
		 */
		public void setActions(Set<LostLockPolicy.Action> actions) {
			this.actions = actions;
		}

		LostLockPolicy toPolicy() {
			return new LostLockPolicy(this.trigger, this.actions);
		}

	}

}
