package dev.zklock.autoconfigure.zookeeper;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link MissingConnectStringException}: which property to set.
 */
class MissingConnectStringFailureAnalyzer extends AbstractFailureAnalyzer<MissingConnectStringException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, MissingConnectStringException cause) {
		return new FailureAnalysis(
				"Distributed locks need a ZooKeeper ensemble, but no ZooKeeper connect string is configured.",
				"Set 'distributed-lock.zookeeper.connect-string' to the ensemble's host:port pairs "
						+ "(for example 'zk1:2181,zk2:2181,zk3:2181'), or, for development, start an embedded "
						+ "server with 'distributed-lock.zookeeper.embedded.enabled=true'.",
				cause);
	}

}
