package dev.zklock.zookeeper;

import java.util.Collections;
import java.util.EnumSet;
import java.util.Set;

/**
 * What counts as losing a held lock, and what happens to its holder then.
 * <p>
 * The default, {@link #defaults()}, declares a lock lost as soon as the ZooKeeper
 * connection is suspended and raises {@link dev.zklock.LockLostException} when the
 * protected code returns. A suspension is when a holder can no longer tell whether it
 * still holds the lock: ZooKeeper may end the session (and hand the lock to another
 * process) before this client gives the session up. Interrupting is not a default because
 * an interrupt can break what it lands in (an interrupted NIO channel is closed, some
 * JDBC drivers abort the connection).
 *
 * @param trigger the connection event from which a held lock counts as lost
 * @param actions what happens to a holder whose lock was lost; empty for nothing beyond
 * {@link dev.zklock.LockHandle#isValid()} turning {@code false}
 */
public record LostLockPolicy(Trigger trigger, Set<Action> actions) {

	/**
	 * Creates a policy.
	 * @param trigger the connection event from which a held lock counts as lost
	 * @param actions what happens to a holder whose lock was lost
	 */
	public LostLockPolicy {
		if (trigger == null) {
			throw new IllegalArgumentException("'trigger' must not be null");
		}
		if (actions == null) {
			throw new IllegalArgumentException("'actions' must not be null");
		}
		actions = Collections
			.unmodifiableSet(actions.isEmpty() ? EnumSet.noneOf(Action.class) : EnumSet.copyOf(actions));
	}

	/**
	 * The default policy: a suspended connection loses the lock, and the caller gets a
	 * {@link dev.zklock.LockLostException} when the protected code returns.
	 * @return the default policy
	 */
	public static LostLockPolicy defaults() {
		return new LostLockPolicy(Trigger.SUSPENDED, EnumSet.of(Action.RAISE));
	}

	/**
	 * Whether the holder's thread is interrupted when its lock is lost.
	 * @return whether holders are interrupted
	 */
	public boolean interruptsHolder() {
		return this.actions.contains(Action.INTERRUPT);
	}

	/**
	 * Whether a {@link dev.zklock.LockLostException} is raised when protected code whose
	 * lock was lost returns.
	 * @return whether the loss is raised
	 */
	public boolean raisesOnCompletion() {
		return this.actions.contains(Action.RAISE);
	}

	/** The event from which a held lock counts as lost. */
	public enum Trigger {

		/**
		 * The connection is suspended (ZooKeeper has not answered for two thirds of the
		 * session timeout), or the process was paused for half the session timeout. Safe:
		 * ZooKeeper may already have ended the session. A lock declared lost stays lost
		 * even if the session turns out to have survived.
		 */
		SUSPENDED,

		/**
		 * The session ended (expired, or given up by Curator after a suspension as long
		 * as the session timeout). While the connection is suspended, holds are uncertain
		 * ({@link dev.zklock.LockHandle#isValid()} is {@code false}) and become valid
		 * again if the same session reconnects. Unsafe when ZooKeeper ends the session
		 * before the client notices, which it can.
		 */
		LOST

	}

	/** What happens to a holder whose lock was lost. */
	public enum Action {

		/**
		 * Interrupt the thread that holds the lock, at the moment the loss is detected.
		 * The interrupt is cleared when the protected code returns.
		 */
		INTERRUPT,

		/**
		 * Throw {@link dev.zklock.LockLostException} when the protected code returns (as
		 * a suppressed exception when the code itself threw).
		 */
		RAISE

	}

}
