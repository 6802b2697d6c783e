package dev.zklock.autoconfigure.zookeeper;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains an {@link EmbeddedServerPortInUseException}: a second instance started with
 * the embedded server on locks together with the first by using the first one's server,
 * not by starting a private one on another port.
 */
class EmbeddedServerPortInUseFailureAnalyzer extends AbstractFailureAnalyzer<EmbeddedServerPortInUseException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, EmbeddedServerPortInUseException cause) {
		int port = cause.getPort();
		return new FailureAnalysis(
				"The embedded ZooKeeper server (distributed-lock.zookeeper.embedded.enabled=true) "
						+ "cannot listen on 127.0.0.1:" + port + ", which is in use, perhaps by the embedded server of "
						+ "another instance of this application.",
				"To run this instance beside that one, and lock together with it, connect it to that server: set "
						+ "'distributed-lock.zookeeper.connect-string=127.0.0.1:" + port + "' and "
						+ "'distributed-lock.zookeeper.embedded.enabled=false'. Another "
						+ "'distributed-lock.zookeeper.embedded.port' would give this instance a ZooKeeper of its own, "
						+ "and its locks would no longer exclude the other instance's.",
				cause);
	}

}
