package dev.zklock.benchmarks;

import java.time.Duration;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import org.apache.zookeeper.AsyncCallback;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.data.Stat;

/**
 * Asynchronous {@code setData} requests on one node, a fixed number of them in flight on
 * one ZooKeeper handle: each reply sends the next request from the handle's event thread,
 * until the stream is stopped or a write fails.
 */
final class WriteStream implements AsyncCallback.StatCallback {

	private final ZooKeeper zooKeeper;

	private final String path;

	private final byte[] data;

	private final AtomicLong replies = new AtomicLong();

	private final AtomicInteger inFlight = new AtomicInteger();

	private final CountDownLatch drained = new CountDownLatch(1);

	private volatile boolean stopping;

	private volatile int failure = KeeperException.Code.OK.intValue();

	/**
	 * Creates a stream, which sends nothing until started.
	 * @param zooKeeper the handle to send on
	 * @param path the node to write, which exists
	 * @param data what to write
	 */
	WriteStream(ZooKeeper zooKeeper, String path, byte[] data) {
		this.zooKeeper = zooKeeper;
		this.path = path;
		this.data = data;
	}

	/**
	 * Sends the first requests.
	 * @param outstanding how many requests to keep in flight
	 */
	void start(int outstanding) {
		for (int i = 0; i < outstanding; i++) {
			send();
		}
	}

	/**
	 * The successful replies so far.
	 * @return the count
	 */
	long replies() {
		return this.replies.get();
	}

	/**
	 * Sends no more requests and waits for the replies to those in flight.
	 * @param timeout the longest wait
	 * @throws KeeperException if a write failed
	 * @throws InterruptedException if the thread is interrupted
	 */
	void stop(Duration timeout) throws KeeperException, InterruptedException {
		this.stopping = true;
		if (!this.drained.await(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
			throw new IllegalStateException("Writes to " + this.path + " still in flight after " + timeout);
		}
		if (this.failure != KeeperException.Code.OK.intValue()) {
			throw KeeperException.create(KeeperException.Code.get(this.failure), this.path);
		}
	}

	private void send() {
		this.inFlight.incrementAndGet();
		this.zooKeeper.setData(this.path, this.data, -1, this, null);
	}

	@Override
	public void processResult(int result, String path, Object context, Stat stat) {
		if (result == KeeperException.Code.OK.intValue()) {
			this.replies.incrementAndGet();
		}
		else {
			this.failure = result;
			this.stopping = true;
		}
		if (!this.stopping) {
			send();
		}
		if (this.inFlight.decrementAndGet() == 0) {
			this.drained.countDown();
		}
	}

}
