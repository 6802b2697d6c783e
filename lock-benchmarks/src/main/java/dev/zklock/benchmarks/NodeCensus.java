package dev.zklock.benchmarks;

import java.time.Duration;

import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;

/**
 * Counts the nodes a variant leaves under its root path, and waits for ZooKeeper to reap
 * the empty container nodes among them.
 */
final class NodeCensus {

	private static final Duration POLL_INTERVAL = Duration.ofMillis(250);

	private final CuratorFramework client;

	NodeCensus(CuratorFramework client) {
		this.client = client;
	}

	/**
	 * The number of nodes below a path, at any depth.
	 * @param path the path
	 * @return the count; zero when the path itself is gone
	 * @throws Exception if ZooKeeper cannot answer
	 */
	long nodesUnder(String path) throws Exception {
		try {
			return this.client.getZookeeperClient().getZooKeeper().getAllChildrenNumber(path);
		}
		catch (KeeperException.NoNodeException ex) {
			return 0;
		}
	}

	/**
	 * Waits until no node is left below the path, or the longest wait has passed.
	 * @param path the path
	 * @param longest the longest wait
	 * @return the nodes before and after, and how long it took
	 * @throws Exception if ZooKeeper cannot answer or the wait is interrupted
	 */
	Reaping awaitReaping(String path, Duration longest) throws Exception {
		long before = nodesUnder(path);
		long start = System.nanoTime();
		long deadline = start + longest.toNanos();
		long nodes = before;
		while (nodes > 0 && System.nanoTime() < deadline) {
			Thread.sleep(POLL_INTERVAL.toMillis());
			nodes = nodesUnder(path);
		}
		return new Reaping(before, nodes, Duration.ofNanos(System.nanoTime() - start));
	}

	/**
	 * The outcome of waiting for reaping.
	 *
	 * @param before the nodes right after the run
	 * @param after the nodes at the end of the wait
	 * @param waited how long the wait took
	 */
	record Reaping(long before, long after, Duration waited) {

	}

}
