package dev.zklock.actuate;

import java.util.List;

import dev.zklock.zookeeper.LockActivity;
import dev.zklock.zookeeper.QueuedLockNode;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.boot.actuate.endpoint.InvalidEndpointRequestException;
import org.springframework.boot.actuate.endpoint.annotation.Endpoint;
import org.springframework.boot.actuate.endpoint.annotation.ReadOperation;
import org.springframework.boot.actuate.endpoint.annotation.Selector;
import org.springframework.boot.actuate.endpoint.annotation.Selector.Match;
import org.springframework.util.StringUtils;

/**
 * The {@code locks} actuator endpoint: the distributed locks this instance holds and
 * waits for, and, for one key, its queue as ZooKeeper sees it across all instances.
 */
@Endpoint(id = "locks")
public class LocksEndpoint {

	private final ZooKeeperLockRegistry registry;

	/**
	 * Creates the endpoint.
	 * @param registry the registry whose locks it shows
	 */
	public LocksEndpoint(ZooKeeperLockRegistry registry) {
		this.registry = registry;
	}

	/**
	 * The locks this instance holds and waits for or, given a key, that key's queue (see
	 * {@link #key(String...)}). Over HTTP, {@code /actuator/locks?key=} followed by the
	 * URL-encoded key addresses every key, also those a path cannot carry: a key with an
	 * empty segment (a leading or trailing {@code /}, or {@code //}).
	 * @param key the lock key, or {@code null} for this instance's locks
	 * @return a {@link LocksDescriptor}, or the key's {@link KeyDescriptor}
	 * @throws InvalidEndpointRequestException (a bad request over HTTP) if the key is
	 * empty or blank, which no lock can have
	 */
	@ReadOperation
	public Object locksOrQueue(@Nullable String key) {
		return (key != null) ? queue(key) : locks();
	}

	/**
	 * The locks this instance holds and waits for.
	 * @return the locks
	 */
	public LocksDescriptor locks() {
		return new LocksDescriptor(this.registry.getRootPath(), this.registry.heldLocks(),
				this.registry.waitingLocks());
	}

	/**
	 * The queue of one key's lock, as ZooKeeper sees it. Over HTTP, the key is the rest
	 * of the path, so that a key with {@code /} in it is addressed as it is
	 * ({@code /actuator/locks/orders/42}); the actuator joins its segments again. A key
	 * with an empty segment cannot be addressed so: see {@link #locksOrQueue(String)}.
	 * @param key the lock key, as the segments of the path that names it
	 * @return the key's queue
	 * @throws InvalidEndpointRequestException (a bad request over HTTP) if the key is
	 * empty or blank, which no lock can have
	 */
	@ReadOperation
	public KeyDescriptor key(@Selector(match = Match.ALL_REMAINING) String... key) {
		return queue(String.join("/", key));
	}

	String pathOf(String key) {
		return this.registry.pathOf(key);
	}

	private KeyDescriptor queue(String key) {
		if (!StringUtils.hasText(key)) {
			String problem = "Lock key must not be empty or blank, but was '" + key + "'";
			throw new InvalidEndpointRequestException(problem, problem);
		}
		return new KeyDescriptor(key, this.registry.pathOf(key), this.registry.queueOf(key));
	}

	/**
	 * The locks of this instance.
	 *
	 * @param rootPath the ZooKeeper path under which the lock nodes live
	 * @param held the locks held now
	 * @param waiting the locks waited for now
	 */
	public record LocksDescriptor(String rootPath, List<LockActivity> held, List<LockActivity> waiting) {

	}

	/**
	 * One key's queue.
	 *
	 * @param key the lock key
	 * @param path the key's ZooKeeper node
	 * @param queue the nodes of its holders and waiters, in order
	 */
	public record KeyDescriptor(String key, String path, List<QueuedLockNode> queue) {

	}

}
