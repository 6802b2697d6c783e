package dev.zklock;

import java.nio.file.Path;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compiled classes of this module keep its packages' dependencies one-way: the API
 * ({@code dev.zklock}, with the observations of its locks in
 * {@code dev.zklock.observation}) knows no implementation, and the ZooKeeper locks
 * ({@code dev.zklock.zookeeper}) build on the API.
 */
class PackageDependencyTests {

	private final JavaClasses core = new ClassFileImporter().importPath(Path.of("target", "classes"));

	@Test
	void apiKnowsNoImplementation() {
		noClasses().that()
			.resideInAnyPackage("dev.zklock", "dev.zklock.observation")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.zklock.zookeeper..")
			.because("the template reaches the locks through LockManager: the core depends on the API, "
					+ "never the reverse")
			.check(this.core);
	}

	@Test
	void coreNeedsNoSpring() {
		noClasses().should()
			.dependOnClassesThat()
			.resideInAPackage("org.springframework..")
			.because("code without Spring locks with the same guarantees")
			.check(this.core);
	}

	@Test
	void coreLogsThroughSlf4j() {
		noClasses().should()
			.dependOnClassesThat()
			.resideInAPackage("org.apache.commons.logging..")
			.because("Curator and ZooKeeper log through SLF4J, so the core brings no other logging API")
			.check(this.core);
	}

	@Test
	void keyStateTalksToNoServer() {
		noClasses().that()
			.haveNameMatching("dev\\.zklock\\.zookeeper\\.(LockKey|LockNode|LockNodeKind)(\\$.*)?")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.apache.curator..", "org.apache.zookeeper..")
			.because("a key's state machine takes events and returns what to do; LockQueue, LockRoot and "
					+ "LockLossDetector talk to ZooKeeper, and the registry drives both sides")
			.check(this.core);
	}

	@Test
	void onlyTheAdaptersTalkToZooKeeper() {
		noClasses().that()
			.resideInAPackage("dev.zklock.zookeeper")
			.and()
			.haveNameNotMatching(
					"dev\\.zklock\\.zookeeper\\.(LockQueue|LockRoot|LockLossDetector|ZooKeeperLockRegistry)(\\$.*)?")
			.should()
			.dependOnClassesThat()
			.resideInAnyPackage("org.apache.curator..", "org.apache.zookeeper..")
			.because("the queue protocol, the root and the connection are each watched in one place")
			.check(this.core);
	}

	@Test
	void coreHoldsTheClassesItChecks() {
		assertThat(this.core.containPackage("dev.zklock.zookeeper")).isTrue();
		assertThat(this.core.contain(LockTemplate.class)).isTrue();
	}

}
