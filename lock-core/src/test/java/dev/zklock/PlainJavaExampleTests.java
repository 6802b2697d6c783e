package dev.zklock;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.LocalDate;
import java.util.concurrent.CompletableFuture;

import com.example.reports.NightlyReports;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The example of the guide's "Locks without Spring" chapter: the page includes
 * {@link NightlyReports} whole, as it is compiled with the tests of a module that has no
 * Spring on its class path, and it locks as the chapter says.
 */
class PlainJavaExampleTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static final Path EXAMPLE = Path.of("src", "test", "java", "com", "example", "reports",
			"NightlyReports.java");

	private static final LocalDate DAY = LocalDate.of(2026, 11, 24);

	@Test
	void guideShowsTheExampleClassWhole() throws IOException {
		String page = Files.readString(Path.of("..", "docs", "modules", "ROOT", "pages", "without-spring.adoc"));
		assertThat(EXAMPLE).exists();
		assertThat(page).contains("[source,java]\n----\ninclude::example$core/"
				+ Path.of("src", "test", "java").relativize(EXAMPLE).toString().replace('\\', '/') + "[]\n----\n");
	}

	@Test
	void reportWaitsForTheLockThatAnotherProcessHolds() throws Exception {
		try (ZooKeeperLockRegistry otherProcess = new ZooKeeperLockRegistry(zookeeper.newClient(), "/locks");
				NightlyReports reports = new NightlyReports(zookeeper.connectString())) {
			CuratorFramework observer = zookeeper.newClient();
			AcquiredLock elsewhere = otherProcess.acquire("report:" + DAY, Duration.ofSeconds(10));
			CompletableFuture<String> report = CompletableFuture.supplyAsync(() -> reports.build(DAY));
			await().until(() -> observer.getChildren().forPath(otherProcess.pathOf("report:" + DAY)),
					(nodes) -> nodes.size() == 2);
			assertThat(report).isNotDone();
			elsewhere.release();
			assertThat(report).succeedsWithin(Duration.ofSeconds(30))
				.asString()
				.startsWith("report of " + DAY + ", token ")
				.doesNotEndWith("token " + elsewhere.fencingToken());
		}
	}

}
