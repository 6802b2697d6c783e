package dev.zklock;

import java.nio.file.Path;

import com.tngtech.archunit.core.domain.JavaClasses;
import com.tngtech.archunit.core.importer.ClassFileImporter;
import org.junit.jupiter.api.Test;

import static com.tngtech.archunit.lang.syntax.ArchRuleDefinition.noClasses;
import static org.assertj.core.api.Assertions.assertThat;

/**
 * The compiled classes of the auto-configuration reach the ZooKeeper locks of
 * {@code lock-core} only where they are wired, shown to operators, or elect a leader (the
 * election is ZooKeeper's, {@code LeaderElection}): the annotation, its interceptor and
 * the JDBC fence work through the API alone.
 */
class ImplementationWiringTests {

	private final JavaClasses classes = new ClassFileImporter().importPath(Path.of("target", "classes"));

	@Test
	void onlyTheAutoConfigurationAndTheEndpointKnowTheImplementation() {
		noClasses().that()
			.resideOutsideOfPackages("dev.zklock.autoconfigure..", "dev.zklock.actuate..", "dev.zklock.leadership..")
			.should()
			.dependOnClassesThat()
			.resideInAPackage("dev.zklock.zookeeper..")
			.because("the annotation side of the API, the interceptor and the fence lock through LockTemplate")
			.check(this.classes);
	}

	@Test
	void classesAreTheAutoConfigurationsOwn() {
		assertThat(this.classes.contain(DistributedLock.class)).isTrue();
		assertThat(this.classes.containPackage("dev.zklock.interceptor")).isTrue();
		assertThat(this.classes.contain(LockTemplate.class)).isFalse();
	}

}
