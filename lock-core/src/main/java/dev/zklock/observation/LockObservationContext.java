package dev.zklock.observation;

import java.util.Locale;

import dev.zklock.LockType;
import io.micrometer.observation.Observation;
import org.jspecify.annotations.Nullable;

/**
 * What an observation of a distributed lock knows about it: the lock's name and type, its
 * key, and once known, the outcome. The name and the type are few and fixed, so the
 * {@link DefaultLockObservationConvention} turns them into tags; the key is not, since
 * keys are unbounded (an order number, a customer id) and every distinct tag value makes
 * a metric series of its own, so no tag carries it.
 *
 * @see DefaultLockObservationConvention
 */
public class LockObservationContext extends Observation.Context {

	private final String lockName;

	private final LockType lockType;

	private final String key;

	private @Nullable Outcome outcome;

	/**
	 * Creates a context.
	 * @param lockName the lock's name: the annotation's, the method's, or the request's
	 * @param lockType the lock's type
	 * @param key the lock key
	 */
	public LockObservationContext(String lockName, LockType lockType, String key) {
		this.lockName = lockName;
		this.lockType = lockType;
		this.key = key;
	}

	/**
	 * The lock's name: {@code @DistributedLock}'s {@code name}, or the annotated method's
	 * class and name, or {@link dev.zklock.LockRequest#name()}.
	 * @return the name
	 */
	public String getLockName() {
		return this.lockName;
	}

	/**
	 * The lock's type.
	 * @return the type
	 */
	public LockType getLockType() {
		return this.lockType;
	}

	/**
	 * The lock key; unbounded, so not for metrics tags.
	 * @return the key
	 */
	public String getKey() {
		return this.key;
	}

	/**
	 * How the acquisition or the hold ended.
	 * @return the outcome, or {@code null} while it has not ended
	 */
	public @Nullable Outcome getOutcome() {
		return this.outcome;
	}

	/**
	 * Records how the acquisition or the hold ended.
	 * @param outcome the outcome
	 */
	public void setOutcome(Outcome outcome) {
		this.outcome = outcome;
	}

	/** How an acquisition or a hold ended. */
	public enum Outcome {

		/** An acquisition that got the lock. */
		ACQUIRED,

		/**
		 * An acquisition that ended because other holders kept the lock for the whole
		 * wait time ({@link dev.zklock.LockTimeoutException}).
		 */
		TIMED_OUT,

		/**
		 * An acquisition that failed otherwise: ZooKeeper unreachable, an interrupt, a
		 * conflicting lock type ({@link dev.zklock.LockAcquisitionException} and the
		 * like).
		 */
		FAILED,

		/** A hold that ended with the release of a lock that was not lost meanwhile. */
		RELEASED,

		/** A hold whose lock was lost before its release. */
		LOST;

		/**
		 * The outcome as a tag value: its name in lower case, such as {@code timed_out}.
		 * @return the tag value
		 */
		public String value() {
			return name().toLowerCase(Locale.ROOT);
		}

	}

}
