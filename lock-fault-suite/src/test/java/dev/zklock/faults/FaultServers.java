package dev.zklock.faults;

import java.io.IOException;
import java.nio.file.Path;
import java.util.List;

import dev.zklock.testsupport.process.PeerRoutes;
import dev.zklock.testsupport.process.ServerSettings;
import dev.zklock.testsupport.process.ZooKeeperEnsemble;

/**
 * How the suite runs ZooKeeper: servers on 127.0.0.1 in small JVMs of their own (see
 * {@link ZooKeeperEnsemble}), with a short tick (200 ms) that lets sessions of a few
 * seconds be negotiated and lets elections and expiries happen within seconds.
 */
final class FaultServers {

	private static final int TICK_MILLIS = 200;

	private static final ServerSettings SETTINGS = new ServerSettings(
			List.of("-Xmx128m", "-XX:+UseSerialGC", "-XX:TieredStopAtLevel=1", "-XX:-UsePerfData",
					"-Dznode.container.checkIntervalMs=1000"),
			List.of("tickTime=" + TICK_MILLIS, "minSessionTimeout=" + (2 * TICK_MILLIS), "maxSessionTimeout=20000",
					"preAllocSize=1024"));

	private FaultServers() {
	}

	/**
	 * Configures the servers; starts none.
	 * @param directory the directory under which each server gets its own
	 * @param size the number of servers: 1 for a standalone server
	 * @param peers how the servers of an ensemble reach each other, such as through
	 * {@link ServerLinks}
	 * @return the servers
	 * @throws IOException if they cannot be configured
	 */
	static ZooKeeperEnsemble configure(Path directory, int size, PeerRoutes peers) throws IOException {
		return ZooKeeperEnsemble.configure(directory, size, SETTINGS, peers);
	}

}
