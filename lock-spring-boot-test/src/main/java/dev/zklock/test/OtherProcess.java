package dev.zklock.test;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockRequest;
import dev.zklock.LockTimeoutException;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;

/**
 * Holds lock keys in a test as another instance of the application would: through a
 * ZooKeeper client with a session of its own and a lock registry of its own, so that the
 * application under test finds the keys taken, and its time-out, skip and fallback paths
 * run.
 *
 * <pre class="code">
 * try (HeldKey held = otherProcess.hold("order:42")) {
 *     assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -&gt; orders.pay("42"));
 * }
 * orders.pay("42");
 * </pre>
 *
 * An {@link EmbeddedLockServer} test gets one as a bean, connected to its server and
 * locking under the application's root path; {@link #connect(String, String)} makes one
 * for any other server. Its holds belong to no thread: a key held twice is queued for
 * like another process's, and any thread may release a hold.
 */
public final class OtherProcess implements AutoCloseable {

	/**
	 * How long {@link #hold(String)}, and {@link #hold(LockRequest)} for a request
	 * without a wait time, wait for a key that the application holds.
	 */
	public static final Duration DEFAULT_WAIT_TIME = Duration.ofSeconds(30);

	private static final Duration CONNECTION_TIMEOUT = Duration.ofSeconds(30);

	private final CuratorFramework client;

	private final ZooKeeperLockRegistry registry;

	private OtherProcess(CuratorFramework client, ZooKeeperLockRegistry registry) {
		this.client = client;
		this.registry = registry;
	}

	/**
	 * Connects to a ZooKeeper server with a session of its own, and waits until the
	 * connection is made.
	 * @param connectString the server's connect string, such as {@code 127.0.0.1:2181}
	 * @param rootPath the application's lock root path
	 * ({@code distributed-lock.root-path}, {@code /locks} by default)
	 * @return the other process, to be closed once done with
	 * @throws IllegalArgumentException if the connect string or the root path is
	 * {@code null} or blank
	 * @throws IllegalStateException if the server could not be reached within 30 seconds,
	 * or the thread was interrupted meanwhile (its interrupt flag stays set)
	 */
	public static OtherProcess connect(String connectString, String rootPath) {
		if (connectString == null || connectString.isBlank()) {
			throw new IllegalArgumentException("'connectString' must not be null or blank");
		}
		if (rootPath == null || rootPath.isBlank()) {
			throw new IllegalArgumentException("'rootPath' must not be null or blank");
		}
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(connectString)
			.retryPolicy(new ExponentialBackoffRetry(100, 3))
			.build();
		client.start();
		try {
			if (!client.blockUntilConnected((int) CONNECTION_TIMEOUT.toSeconds(), TimeUnit.SECONDS)) {
				client.close();
				throw new IllegalStateException(
						"The other process could not connect to ZooKeeper at " + connectString + " within 30 s");
			}
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			client.close();
			throw new IllegalStateException(
					"Interrupted while the other process connected to ZooKeeper at " + connectString);
		}
		return new OtherProcess(client, new ZooKeeperLockRegistry(client, rootPath));
	}

	/**
	 * Holds the exclusive lock of the key, waiting up to {@link #DEFAULT_WAIT_TIME} for
	 * it.
	 * @param key the lock key, as the application locks it
	 * @return the hold, to be closed to release the key
	 * @throws LockTimeoutException if the key stayed held for the wait time
	 * @throws LockAcquisitionException if the lock could not be acquired for another
	 * reason
	 * @throws IllegalArgumentException if the key is {@code null} or blank
	 */
	public HeldKey hold(String key) {
		return hold(LockRequest.exclusive(key));
	}

	/**
	 * Holds the requested lock: exclusive, read, write, or a permit of a semaphore (of as
	 * many permits as the application's), waiting up to the request's wait time,
	 * {@link #DEFAULT_WAIT_TIME} if it has none; {@link Duration#ZERO} tries once. The
	 * request's name is not used.
	 * @param request the lock to hold
	 * @return the hold, to be closed to release the key
	 * @throws LockTimeoutException if the key stayed held for the wait time
	 * @throws LockAcquisitionException if the lock could not be acquired for another
	 * reason, such as a key that the application locks as another type
	 * @throws IllegalArgumentException if the request is {@code null}, or has a minimum
	 * hold time: the key is held until the hold is closed
	 */
	public HeldKey hold(LockRequest request) {
		if (request == null) {
			throw new IllegalArgumentException("'request' must not be null");
		}
		if (!request.holdAtLeast().isZero()) {
			throw new IllegalArgumentException("The other process holds '" + request.key()
					+ "' until its HeldKey is closed, so a minimum hold time does not apply, but the request has "
					+ request.holdAtLeast());
		}
		Duration waitTime = (request.waitTime() != null) ? request.waitTime() : DEFAULT_WAIT_TIME;
		return new HeldKey(this.registry.acquireDetached(request.key(), request.type(), request.permits(), waitTime),
				this.registry);
	}

	/**
	 * Ends the other process's session, which releases every key it still holds.
	 */
	@Override
	public void close() {
		this.registry.close();
		this.client.close();
	}

}
