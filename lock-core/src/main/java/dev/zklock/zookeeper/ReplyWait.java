package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

import org.apache.curator.framework.CuratorFramework;

/**
 * How long an acquisition waits for ZooKeeper's replies to the requests it sent in the
 * background. A wait time bounds the wait for other holders, not ZooKeeper's work: a
 * reply is waited for until the deadline plus {@link #GRACE}, and past that for as long
 * as the client stays connected, up to one session timeout more, since a slow ZooKeeper
 * is not a held lock. A client whose server stops answering loses its connection within
 * two thirds of the session timeout; the wait then ends at once.
 * <p>
 * Waiting on replies, rather than on Curator's blocking calls, needs no interrupt to cut
 * a wait short: the caller's own interrupts stay the caller's. Curator goes on with a
 * request whose reply is no longer waited for; the caller cleans up after it (a lock node
 * created too late is deleted).
 */
final class ReplyWait {

	/**
	 * How long past its deadline an acquisition waits for a reply of a ZooKeeper it is
	 * not connected to.
	 */
	static final Duration GRACE = Duration.ofMillis(250);

	private static final long CONNECTION_CHECK_NANOS = TimeUnit.MILLISECONDS.toNanos(100);

	private final CuratorFramework client;

	private final long graceEnd;

	ReplyWait(CuratorFramework client, long deadlineNanos) {
		this.client = client;
		this.graceEnd = deadlineNanos + GRACE.toNanos();
	}

	/**
	 * Waits for a reply.
	 * @param <T> the reply's type
	 * @param reply the reply to come
	 * @return the reply
	 * @throws TimeoutException if the reply did not come in time
	 * @throws InterruptedException if the thread was interrupted while it waited
	 */
	<T> T await(CompletableFuture<T> reply) throws TimeoutException, InterruptedException {
		long connectedEnd = this.graceEnd
				+ TimeUnit.MILLISECONDS.toNanos(this.client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs());
		while (true) {
			long now = System.nanoTime();
			long slice;
			if (now - this.graceEnd < 0) {
				slice = this.graceEnd - now;
			}
			else if (now - connectedEnd < 0 && this.client.getZookeeperClient().isConnected()) {
				slice = Math.min(CONNECTION_CHECK_NANOS, connectedEnd - now);
			}
			else {
				throw new TimeoutException("ZooKeeper did not reply in time");
			}
			try {
				return reply.get(slice, TimeUnit.NANOSECONDS);
			}
			catch (TimeoutException ex) {
				// look at the clock and the connection again
			}
			catch (ExecutionException ex) {
				throw new IllegalStateException("A reply of ZooKeeper failed", ex.getCause());
			}
		}
	}

}
