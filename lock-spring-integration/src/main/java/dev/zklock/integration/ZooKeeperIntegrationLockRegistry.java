package dev.zklock.integration;

import java.time.Duration;
import java.util.concurrent.TimeoutException;

import dev.zklock.LockRequest;
import dev.zklock.LockTemplate;
import dev.zklock.zookeeper.ZooKeeperLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.integration.util.CheckedCallable;
import org.springframework.integration.util.CheckedRunnable;
import org.springframework.util.Assert;

/**
 * Spring Integration's {@link LockRegistry} on zklock's {@link ZooKeeperLockRegistry},
 * for the components that take one: {@code LockRegistryLeaderInitiator}, the aggregator
 * and the resequencer, and any other code written against the interface.
 * <p>
 * {@link #obtain(Object)} returns zklock's {@link ZooKeeperLock} view of the key's
 * exclusive lock, with everything zklock gives it: per-thread reentrancy shared with
 * {@link dev.zklock.DistributedLock} and {@link LockTemplate}, hand-off between the
 * threads of the process, detection of a lost lock (a holder that re-enters a lost lock,
 * as the leader initiator does at each heartbeat, fails and so steps down), and the
 * holder's fencing token through {@link ZooKeeperLock#handle()}.
 * <p>
 * The {@code executeLocked} methods run their work through a {@link LockTemplate}: each
 * acquisition and hold is observed under the name {@value #OBSERVATION_NAME},
 * {@link dev.zklock.LockHandle#current()} gives the work its fencing token, and work
 * whose lock was lost while it ran ends with {@link dev.zklock.LockLostException} when
 * the registry's {@link dev.zklock.zookeeper.LostLockPolicy} raises losses. Otherwise
 * they answer as the interface says: a wait that ends without the lock is a
 * {@link TimeoutException}, an interrupted wait an {@link InterruptedException}, and the
 * work's own exceptions reach the caller unchanged.
 * <p>
 * The registry implements neither {@code RenewableLockRegistry} nor
 * {@code ExpirableLockRegistry}. A ZooKeeper lock has no time to live to renew: it lasts
 * as long as its holder's session, which the client keeps alive by itself, and ends only
 * when ZooKeeper stops hearing from the holder, which no renewal could prevent and which
 * zklock detects instead. Nor is there anything to expire: the registry keeps a key only
 * while a thread holds or waits for it.
 */
public class ZooKeeperIntegrationLockRegistry implements LockRegistry<ZooKeeperLock> {

	/**
	 * What the acquisitions and holds of {@code executeLocked} are called in observations
	 * and metrics (their {@code name} tag).
	 */
	public static final String OBSERVATION_NAME = "LockRegistry.executeLocked";

	private final ZooKeeperLockRegistry registry;

	private final LockTemplate template;

	/**
	 * Creates a registry whose locks are those of the given zklock registry.
	 * @param registry the zklock registry that acquires and releases the locks
	 */
	public ZooKeeperIntegrationLockRegistry(ZooKeeperLockRegistry registry) {
		Assert.notNull(registry, "'registry' must not be null");
		this.registry = registry;
		this.template = new LockTemplate(registry, ZooKeeperLockRegistry.LONGEST_WAIT);
	}

	/**
	 * Sets the registry that observes the locks of {@code executeLocked};
	 * {@link ObservationRegistry#NOOP}, the default, observes nothing.
	 * @param observationRegistry the observation registry
	 */
	public void setObservationRegistry(ObservationRegistry observationRegistry) {
		this.template.setObservationRegistry(observationRegistry);
	}

	/**
	 * The {@link ZooKeeperLock} view of the key's exclusive lock. Every view of a key is
	 * the same lock, also the views that {@link ZooKeeperLockRegistry#obtain(String)}
	 * hands out, and they are equal, so a map or a set keeps a key's lock once.
	 * @param lockKey the key: its {@code toString()}, which must not be blank, is the
	 * zklock key
	 * @return the lock
	 */
	@Override
	public ZooKeeperLock obtain(Object lockKey) {
		return this.registry.obtain(keyOf(lockKey));
	}

	/**
	 * Runs the work while holding the key's lock, waiting for it as long as it takes.
	 * @param lockKey the key, as for {@link #obtain(Object)}
	 * @param runnable the work
	 * @throws E what the work threw
	 * @throws InterruptedException if the thread was interrupted before or while waiting
	 */
	@Override
	public <E extends Throwable> void executeLocked(Object lockKey, CheckedRunnable<E> runnable)
			throws E, InterruptedException {
		executeLocked(lockKey, callable(runnable));
	}

	/**
	 * Runs the work while holding the key's lock, waiting for it as long as it takes.
	 * @param lockKey the key, as for {@link #obtain(Object)}
	 * @param callable the work
	 * @return the work's result
	 * @throws E what the work threw
	 * @throws InterruptedException if the thread was interrupted before or while waiting
	 */
	@Override
	public <T extends @Nullable Object, E extends Throwable> T executeLocked(Object lockKey,
			CheckedCallable<T, E> callable) throws E, InterruptedException {
		Assert.notNull(callable, "'callable' must not be null");
		return new LockedCall<>(callable).run(this.template, request(lockKey));
	}

	/**
	 * Runs the work while holding the key's lock, waiting at most the given time for it.
	 * @param lockKey the key, as for {@link #obtain(Object)}
	 * @param waitLockDuration how long to wait, not negative; {@link Duration#ZERO} tries
	 * once
	 * @param runnable the work
	 * @throws E what the work threw
	 * @throws InterruptedException if the thread was interrupted before or while waiting
	 * @throws TimeoutException if another holder kept the lock for the wait time
	 */
	@Override
	public <E extends Throwable> void executeLocked(Object lockKey, Duration waitLockDuration,
			CheckedRunnable<E> runnable) throws E, InterruptedException, TimeoutException {
		executeLocked(lockKey, waitLockDuration, callable(runnable));
	}

	/**
	 * Runs the work while holding the key's lock, waiting at most the given time for it.
	 * @param lockKey the key, as for {@link #obtain(Object)}
	 * @param waitLockDuration how long to wait, not negative; {@link Duration#ZERO} tries
	 * once
	 * @param callable the work
	 * @return the work's result
	 * @throws E what the work threw
	 * @throws InterruptedException if the thread was interrupted before or while waiting
	 * @throws TimeoutException if another holder kept the lock for the wait time
	 */
	@Override
	public <T extends @Nullable Object, E extends Throwable> T executeLocked(Object lockKey, Duration waitLockDuration,
			CheckedCallable<T, E> callable) throws E, InterruptedException, TimeoutException {
		Assert.notNull(waitLockDuration, "'waitLockDuration' must not be null");
		Assert.notNull(callable, "'callable' must not be null");
		return new LockedCall<>(callable).runWithTimeout(this.template,
				request(lockKey).withWaitTime(waitLockDuration));
	}

	private static LockRequest request(Object lockKey) {
		return LockRequest.exclusive(keyOf(lockKey)).withName(OBSERVATION_NAME);
	}

	private static String keyOf(Object lockKey) {
		Assert.notNull(lockKey, "Lock key must not be null");
		return lockKey.toString();
	}

	private static <E extends Throwable> CheckedCallable<@Nullable Object, E> callable(CheckedRunnable<E> runnable) {
		Assert.notNull(runnable, "'runnable' must not be null");
		return () -> {
			runnable.run();
			return null;
		};
	}

	@Override
	public String toString() {
		return "ZooKeeperIntegrationLockRegistry[rootPath=" + this.registry.getRootPath() + "]";
	}

}
