package dev.zklock.faults;

import java.time.Duration;
import java.util.List;

/**
 * What a {@link FaultRun} starts.
 *
 * @param servers the number of ZooKeeper servers: 1 for a standalone server
 * @param workers the kind of each worker the run starts, the first one the victim
 * @param sessionTimeout the session timeout of the workers
 * @param workerProperties properties of every worker's application, as {@code name=value}
 * @param victimProperties properties of the first worker's application only
 * @param storeAcceptsStaleTokens whether the fenced store is broken and accepts every
 * write
 */
record RunSetup(int servers, List<WorkerKind> workers, Duration sessionTimeout, List<String> workerProperties,
		List<String> victimProperties, boolean storeAcceptsStaleTokens) {

	/** The workers of a run unless it says otherwise: three of exclusive locks. */
	static final List<WorkerKind> EXCLUSIVE_WORKERS = List.of(WorkerKind.EXCLUSIVE, WorkerKind.EXCLUSIVE,
			WorkerKind.EXCLUSIVE);

	/**
	 * A run of three correct workers of exclusive locks and a correct store, with the
	 * default session timeout.
	 * @param servers the number of ZooKeeper servers
	 * @return the setup
	 */
	static RunSetup of(int servers) {
		return new RunSetup(servers, EXCLUSIVE_WORKERS, FaultWorker.SESSION_TIMEOUT, List.of(), List.of(), false);
	}

}
