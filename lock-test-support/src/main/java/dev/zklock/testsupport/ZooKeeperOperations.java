package dev.zklock.testsupport;

import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;

import org.apache.curator.drivers.AdvancedTracerDriver;
import org.apache.curator.drivers.EventTrace;
import org.apache.curator.drivers.OperationTrace;
import org.apache.curator.framework.CuratorFramework;
import org.awaitility.Awaitility;

/**
 * Records the ZooKeeper operations that a Curator client sends under a path, and its
 * transactions (which Curator traces with no path), through Curator's tracer: the round
 * trips a lock costs, counted at the client.
 */
public final class ZooKeeperOperations extends AdvancedTracerDriver {

	private final String pathPrefix;

	private final Queue<String> operations = new ConcurrentLinkedQueue<>();

	private ZooKeeperOperations(String pathPrefix) {
		this.pathPrefix = pathPrefix;
	}

	/**
	 * Starts recording a client's operations on paths under a prefix, and its
	 * transactions.
	 * @param client the client
	 * @param pathPrefix the path prefix, such as {@code /locks}
	 * @return the recorder
	 */
	public static ZooKeeperOperations record(CuratorFramework client, String pathPrefix) {
		ZooKeeperOperations recorder = new ZooKeeperOperations(pathPrefix);
		client.getZookeeperClient().setTracerDriver(recorder);
		return recorder;
	}

	/**
	 * The operations recorded since the last call, by Curator's names for them, such as
	 * {@code CreateBuilderImpl-Foreground}.
	 * @return the operations, in the order they completed
	 */
	public List<String> drain() {
		List<String> drained = new ArrayList<>();
		for (String operation = this.operations.poll(); operation != null; operation = this.operations.poll()) {
			drained.add(operation);
		}
		return drained;
	}

	/**
	 * The operations recorded since the last drain, once at least as many as expected
	 * have completed: a release sends its deletion without waiting for it.
	 * @param expected how many operations to wait for
	 * @return the operations, in the order they completed
	 */
	public List<String> drain(int expected) {
		Awaitility.await().until(() -> this.operations.size() >= expected);
		return drain();
	}

	@Override
	public void addTrace(OperationTrace trace) {
		boolean transaction = trace.getPath() == null && trace.getRequestTransactionCount() > 0;
		if (transaction || (trace.getPath() != null && trace.getPath().startsWith(this.pathPrefix))) {
			this.operations.add(trace.getName());
		}
	}

	@Override
	public void addEvent(EventTrace trace) {
	}

}
