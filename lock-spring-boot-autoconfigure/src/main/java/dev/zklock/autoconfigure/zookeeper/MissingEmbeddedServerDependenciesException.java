package dev.zklock.autoconfigure.zookeeper;

import java.util.List;

/**
 * Thrown when the embedded ZooKeeper server cannot start because jars that it needs at
 * run time are missing from the class path; it names all of them at once.
 */
class MissingEmbeddedServerDependenciesException extends IllegalStateException {

	private final List<String> artifacts;

	/**
	 * Creates the exception.
	 * @param artifacts the missing artifacts, as {@code groupId:artifactId}
	 */
	MissingEmbeddedServerDependenciesException(List<String> artifacts) {
		super("The embedded ZooKeeper server (distributed-lock.zookeeper.embedded.enabled=true) needs "
				+ String.join(" and ", artifacts) + " on the class path: add the dependency "
				+ EmbeddedZooKeeperServer.DEPENDENCY + ", which brings them");
		this.artifacts = List.copyOf(artifacts);
	}

	/**
	 * The missing artifacts.
	 * @return the artifacts, as {@code groupId:artifactId}
	 */
	List<String> getArtifacts() {
		return this.artifacts;
	}

}
