package dev.zklock.autoconfigure;

import java.time.Duration;

import dev.zklock.zookeeper.HandOffPolicy;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;

/**
 * How a released lock passes to the threads of this process that wait for it.
 */
public class HandOffProperties {

	/**
	 * Whether a released lock passes to a thread of this process that waits for it, with
	 * no ZooKeeper round trip (lock cohorting); false queues every thread in ZooKeeper.
	 */
	private boolean enabled = true;

	/**
	 * Most hand-offs of one ZooKeeper lock in a row while another process queues behind
	 * it, before it is released to ZooKeeper so that the other process gets its turn; at
	 * most 4095, the most that fencing tokens can count.
	 */
	private int maxCount = HandOffPolicy.defaults().maxHandOffs();

	/**
	 * Longest time after its ZooKeeper acquisition during which a lock that another
	 * process queues behind is still handed off; later releases go to ZooKeeper, so that
	 * the other process gets its turn.
	 */
	private Duration maxTime = HandOffPolicy.defaults().maxTime();

	/**
	 * Whether a released lock passes to a thread of this process that waits for it
	 * ({@code distributed-lock.hand-off.enabled}).
	 * @return whether hand-off is on
	 */
	public boolean isEnabled() {
		return this.enabled;
	}

	/**
	 * Sets whether a released lock passes to a thread of this process that waits for it
	 * ({@code distributed-lock.hand-off.enabled}).
	 * @param enabled whether hand-off is on
	 */
	public void setEnabled(boolean enabled) {
		this.enabled = enabled;
	}

	/**
	 * The most hand-offs of one ZooKeeper lock in a row
	 * ({@code distributed-lock.hand-off.max-count}).
	 * @return the most hand-offs in a row
	 */
	public int getMaxCount() {
		return this.maxCount;
	}

	/**
	 * Sets the most hand-offs of one ZooKeeper lock in a row
	 * ({@code distributed-lock.hand-off.max-count}).
	 * @param maxCount the most hand-offs in a row
	 */
	public void setMaxCount(int maxCount) {
		this.maxCount = maxCount;
	}

	/**
	 * The longest time after its ZooKeeper acquisition during which a lock is still
	 * handed off ({@code distributed-lock.hand-off.max-time}).
	 * @return the hand-off time budget
	 */
	public Duration getMaxTime() {
		return this.maxTime;
	}

	/**
	 * Sets the longest time after its ZooKeeper acquisition during which a lock is still
	 * handed off ({@code distributed-lock.hand-off.max-time}).
	 * @param maxTime the hand-off time budget
	 */
	public void setMaxTime(Duration maxTime) {
		this.maxTime = maxTime;
	}

	HandOffPolicy toPolicy() {
		if (this.maxCount < 0 || this.maxCount > HandOffPolicy.MAX_HAND_OFFS) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.hand-off.max-count", this.maxCount,
					"The most hand-offs in a row must be between 0 and " + HandOffPolicy.MAX_HAND_OFFS
							+ ", the most that fencing tokens can count.");
		}
		if (this.maxTime.isNegative()) {
			throw new InvalidConfigurationPropertyValueException("distributed-lock.hand-off.max-time", this.maxTime,
					"The hand-off time budget must not be negative.");
		}
		return new HandOffPolicy(this.enabled, this.maxCount, this.maxTime);
	}

}
