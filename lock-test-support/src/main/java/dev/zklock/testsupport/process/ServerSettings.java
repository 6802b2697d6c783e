package dev.zklock.testsupport.process;

import java.util.List;

/**
 * How the servers of a {@link ZooKeeperEnsemble} run, beyond what the ensemble sets
 * itself (their data directory, client port on 127.0.0.1, {@code srvr} command, no admin
 * server, and for an ensemble of several the quorum's members and limits).
 *
 * @param jvmOptions options of every server's JVM, such as {@code -Xmx128m} or
 * {@code -Dznode.container.checkIntervalMs=1000}
 * @param zooCfg further lines of every server's {@code zoo.cfg}, {@code key=value}, such
 * as {@code tickTime=200}; a later line of the same key wins
 */
public record ServerSettings(List<String> jvmOptions, List<String> zooCfg) {

	public ServerSettings {
		jvmOptions = List.copyOf(jvmOptions);
		zooCfg = List.copyOf(zooCfg);
	}

}
