package dev.zklock;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

import dev.zklock.testsupport.BusyMachine;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.testsupport.process.JavaCommand;
import dev.zklock.testsupport.process.JvmProcess;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * One call under a lock, from a registry and a template built for it, needs few of the
 * core's types: a reader follows it through at most 25 of them. Counted in a JVM of its
 * own ({@link OneLockedCall}), from what {@code -verbose:class} says it loaded from the
 * core's compiled main classes; nested types count with their outer type.
 */
class OneCallTypesTests {

	private static final Pattern LOADED = Pattern
		.compile("\\[class,load\\] (dev\\.zklock\\.[\\w.]+) source: \\S*lock-core/target/classes/");

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@TempDir
	Path directory;

	@Test
	void oneCallLoadsAtMostTwentyFiveOfTheCoresTypes() throws Exception {
		Path log = this.directory.resolve("classes.log");
		try (JvmProcess call = JvmProcess.start("one-locked-call",
				JavaCommand.mainClass(OneLockedCall.class.getName())
					.jvmOptions("-verbose:class")
					.arguments(this.zookeeper.connectString()),
				ProcessBuilder.Redirect.to(log.toFile()))) {
			assertThat(call.awaitExit(BusyMachine.MARGIN.multipliedBy(2))).isTrue();
			assertThat(call.exitValue()).isZero();
		}
		List<String> types = Files.readAllLines(log)
			.stream()
			.map(LOADED::matcher)
			.filter(Matcher::find)
			.map((loaded) -> loaded.group(1))
			.toList();
		System.out.println("One call loaded " + types.size() + " of the core's types: " + types);
		assertThat(types).contains(LockTemplate.class.getName()).hasSizeLessThanOrEqualTo(25);
	}

}
