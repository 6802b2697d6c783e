package dev.zklock.autoconfigure.zookeeper;

import org.springframework.boot.diagnostics.AbstractFailureAnalyzer;
import org.springframework.boot.diagnostics.FailureAnalysis;

/**
 * Explains a {@link MissingEmbeddedServerDependenciesException}: every missing jar, and
 * the one dependency that brings them all.
 */
class MissingEmbeddedServerDependenciesFailureAnalyzer
		extends AbstractFailureAnalyzer<MissingEmbeddedServerDependenciesException> {

	@Override
	protected FailureAnalysis analyze(Throwable rootFailure, MissingEmbeddedServerDependenciesException cause) {
		return new FailureAnalysis(
				"The embedded ZooKeeper server (distributed-lock.zookeeper.embedded.enabled=true) "
						+ "cannot start: the class path lacks " + String.join(" and ", cause.getArtifacts())
						+ ", which ZooKeeper's server needs at run time and leaves to the application.",
				"""
						Add zklock's embedded server dependency, which brings the server and everything it needs \
						(its version comes from zklock's BOM, lock-dependencies; without the BOM, add zklock's \
						version):

						    <dependency>
						        <groupId>dev.zklock</groupId>
						        <artifactId>lock-embedded-zookeeper</artifactId>
						    </dependency>

						With Gradle: runtimeOnly("dev.zklock:lock-embedded-zookeeper"). Or connect to a ZooKeeper \
						ensemble instead: set 'distributed-lock.zookeeper.connect-string' and remove \
						'distributed-lock.zookeeper.embedded.enabled'.""", cause);
	}

}
