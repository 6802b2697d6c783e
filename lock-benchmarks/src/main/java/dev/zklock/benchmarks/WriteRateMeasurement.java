package dev.zklock.benchmarks;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import dev.zklock.benchmarks.ResultRow.Exclusion;
import org.apache.curator.framework.CuratorFramework;

/**
 * Measures the servers' sustained write rate, the number that sizes an ensemble:
 * {@value #CONNECTIONS} clients set up like the drivers', all connected to the server
 * that the drivers use, each keeping {@value #OUTSTANDING} asynchronous {@code setData}
 * requests in flight on a node of its own under the variant's root, through a warm-up and
 * then the measured window. The rate is the replies received within the window per
 * second; the writes per acquisition of its row are the writes sent per reply, all run
 * long.
 */
final class WriteRateMeasurement {

	/**
	 * The client connections that write at the same time.
	 */
	static final int CONNECTIONS = 4;

	/**
	 * The requests that each connection keeps in flight.
	 */
	static final int OUTSTANDING = 64;

	private static final byte[] NO_DATA = new byte[0];

	private final String connectString;

	private final Duration warmup;

	private final Duration window;

	/**
	 * Creates a measurement.
	 * @param connectString the ZooKeeper connect string of the run's clients
	 * @param warmup how long the connections write before the window
	 * @param window how long the rate is measured
	 */
	WriteRateMeasurement(String connectString, Duration warmup, Duration window) {
		this.connectString = connectString;
		this.warmup = warmup;
		this.window = window;
	}

	/**
	 * Measures the rate with a variant's nodes.
	 * @param variant the variant, the write-rate limit
	 * @return the row, whose throughput is the writes per second
	 * @throws Exception if a write fails, or the writes do not end within the wait time
	 */
	ResultRow measure(Variant variant) throws Exception {
		ZooKeeperWrites writes = new ZooKeeperWrites();
		List<CuratorFramework> clients = new ArrayList<>();
		try {
			List<WriteStream> streams = new ArrayList<>();
			for (int i = 1; i <= CONNECTIONS; i++) {
				CuratorFramework client = CuratorConnections.open(this.connectString, writes);
				clients.add(client);
				String path = variant.rootPath() + "/write-rate/connection-" + i;
				client.create().orSetData().creatingParentsIfNeeded().forPath(path, NO_DATA);
				streams.add(new WriteStream(client.getZookeeperClient().getZooKeeper(), path, NO_DATA));
			}
			streams.forEach((stream) -> stream.start(OUTSTANDING));
			Thread.sleep(this.warmup.toMillis());
			long before = replies(streams);
			long start = System.nanoTime();
			Thread.sleep(this.window.toMillis());
			long measured = replies(streams) - before;
			double seconds = (System.nanoTime() - start) / 1e9;
			for (WriteStream stream : streams) {
				stream.stop(LockDriver.WAIT_TIME);
			}
			return new ResultRow(Scenario.WRITE_RATE, setting(), CONNECTIONS, variant.name(), measured / seconds,
					(double) writes.count() / replies(streams), Exclusion.NOT_CHECKED,
					List.of(new Metric("writes measured", measured, ""), new Metric("window", seconds, "s")));
		}
		finally {
			clients.forEach(CuratorFramework::close);
		}
	}

	/**
	 * The setting of the write-rate rows.
	 * @return {@code 4 connections × 64 outstanding setData}
	 */
	static String setting() {
		return CONNECTIONS + " connections × " + OUTSTANDING + " outstanding setData";
	}

	private static long replies(List<WriteStream> streams) {
		return streams.stream().mapToLong(WriteStream::replies).sum();
	}

}
