package dev.zklock.faults;

import java.time.Duration;
import java.util.List;

/**
 * What a {@link FaultRun} starts.
 *
 * @param servers the number of ZooKeeper servers: 1 for a standalone server
 * @param sessionTimeout the session timeout of the workers
 * @param workerProperties properties of every worker's application, as {@code name=value}
 * @param victimProperties properties of the first worker's application only
 * @param storeAcceptsStaleTokens whether the fenced store is broken and accepts every
 * write
 */
record RunSetup(int servers, Duration sessionTimeout, List<String> workerProperties, List<String> victimProperties,
		boolean storeAcceptsStaleTokens) {

	/**
	 * A run of correct workers and store, with the default session timeout.
	 * @param servers the number of ZooKeeper servers
	 * @return the setup
	 */
	static RunSetup of(int servers) {
		return new RunSetup(servers, FaultWorker.SESSION_TIMEOUT, List.of(), List.of(), false);
	}

}
