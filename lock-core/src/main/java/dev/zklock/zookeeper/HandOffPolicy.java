package dev.zklock.zookeeper;

import java.time.Duration;

/**
 * How long this process may keep a ZooKeeper lock for its own threads (lock cohorting):
 * when a thread releases a key that another thread of the process waits for, the held
 * ZooKeeper lock passes to that thread with no ZooKeeper round trip. While another
 * process queues behind the lock's node, until one of the bounds is reached; then the
 * lock is released to ZooKeeper, so that the other processes queued for it get their turn
 * in order. While none does, until the node's fencing tokens run out of room
 * ({@link #MAX_HAND_OFFS}).
 * <p>
 * Threads that take a lock over share its ZooKeeper node, but each gets a fencing token
 * of its own, greater than its predecessor's: the node's creation zxid followed by the
 * node's hand-off count (see the reference guide's Fencing tokens chapter). A hand-off
 * happens only after the previous holder released the lock while its session provably
 * lasted, and only if nothing cast doubt on the session since (a suspended connection, a
 * pause of the process); otherwise the node is deleted and the next thread queues in
 * ZooKeeper. A holder in another process comes later through ZooKeeper and gets a greater
 * token still.
 *
 * @param enabled whether waiting threads of this process take a released lock over
 * @param maxHandOffs the most hand-offs of one ZooKeeper lock in a row
 * @param maxTime the longest time since the ZooKeeper lock was acquired during which it
 * is still handed off
 */
public record HandOffPolicy(boolean enabled, int maxHandOffs, Duration maxTime) {

	/**
	 * The most hand-offs of one ZooKeeper lock in a row that fencing tokens can count:
	 * {@value}.
	 */
	public static final int MAX_HAND_OFFS = LockNode.MAX_HAND_OFFS;

	/**
	 * Creates a policy.
	 * @param enabled whether waiting threads of this process take a released lock over
	 * @param maxHandOffs the most hand-offs of one ZooKeeper lock in a row, at most
	 * {@link #MAX_HAND_OFFS}
	 * @param maxTime the longest time since the ZooKeeper lock was acquired during which
	 * it is still handed off
	 */
	public HandOffPolicy {
		if (maxHandOffs < 0 || maxHandOffs > MAX_HAND_OFFS) {
			throw new IllegalArgumentException(
					"The most hand-offs in a row must be between 0 and " + MAX_HAND_OFFS + ", but was " + maxHandOffs);
		}
		if (maxTime == null) {
			throw new IllegalArgumentException("'maxTime' must not be null");
		}
		if (maxTime.isNegative()) {
			throw new IllegalArgumentException(
					"'maxTime' (the hand-off time budget) must not be negative, but was " + maxTime);
		}
	}

	/**
	 * The time budget in nanoseconds; {@link Long#MAX_VALUE}, no time bound, for a budget
	 * too long to count in nanoseconds (about 292 years, or {@code ChronoUnit.FOREVER}).
	 */
	long maxTimeNanos() {
		return (this.maxTime.compareTo(Duration.ofNanos(Long.MAX_VALUE)) >= 0) ? Long.MAX_VALUE
				: this.maxTime.toNanos();
	}

	/**
	 * The default policy: up to 64 hand-offs in a row, within 50 milliseconds of the
	 * ZooKeeper acquisition.
	 * @return the default policy
	 */
	public static HandOffPolicy defaults() {
		return new HandOffPolicy(true, 64, Duration.ofMillis(50));
	}

	/**
	 * No hand-offs: every thread queues for the lock in ZooKeeper.
	 * @return the policy that turns hand-offs off
	 */
	public static HandOffPolicy disabled() {
		return new HandOffPolicy(false, 0, Duration.ZERO);
	}

}
