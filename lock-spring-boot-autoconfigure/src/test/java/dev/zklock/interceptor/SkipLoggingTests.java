package dev.zklock.interceptor;

import java.time.Duration;
import java.util.concurrent.TimeUnit;

import dev.zklock.DistributedLock;
import dev.zklock.OnLockFailure;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.logging.LogLevel;
import org.springframework.boot.logging.LoggingSystem;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * A skipped call says so in the log: quietly (at debug level) when another holder kept
 * the lock, as a scheduled job on several instances expects, and as a one-line warning
 * naming the method when ZooKeeper could not be reached, which would otherwise skip every
 * run without a word.
 */
@ExtendWith(OutputCaptureExtension.class)
class SkipLoggingTests {

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@Test
	void skipBecauseAnotherHolderKeptTheLockIsLoggedAtDebugLevel(CapturedOutput output) throws Exception {
		AcquiredLock held = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks").acquire("nightly",
				Duration.ofSeconds(5));
		LoggingSystem logging = LoggingSystem.get(getClass().getClassLoader());
		logging.setLogLevel("dev.zklock.interceptor", LogLevel.DEBUG);
		try {
			LockApplications.connectedTo(this.zookeeper)
				.withUserConfiguration(NightlyConfiguration.class)
				.run((context) -> {
					Nightly nightly = context.getBean(Nightly.class);
					nightly.run();
					assertThat(output)
						.containsPattern("DEBUG .*Skipped " + Nightly.class.getName().replace("$", "\\$")
								+ "\\.run\\(\\): .*'nightly'")
						.doesNotContainPattern("WARN .*Skipped");
					assertThat(nightly.runs()).isZero();
				});
		}
		finally {
			logging.setLogLevel("dev.zklock.interceptor", null);
			held.release();
		}
	}

	@Test
	void skipBecauseZooKeeperCannotBeReachedIsAWarningNamingTheMethod(CapturedOutput output) {
		LockApplications.connectedTo(this.zookeeper)
			.withUserConfiguration(NightlyConfiguration.class)
			.run((context) -> {
				Nightly nightly = context.getBean(Nightly.class);
				nightly.run();
				this.zookeeper.stop();
				CuratorFramework client = context.getBean(CuratorFramework.class);
				await().atMost(20, TimeUnit.SECONDS).until(() -> !client.getZookeeperClient().isConnected());
				nightly.run();
				assertThat(output).containsPattern("WARN .*Skipped " + Nightly.class.getName().replace("$", "\\$")
						+ "\\.run\\(\\): Could not acquire lock 'nightly' within 0ms: no connection to ZooKeeper");
				assertThat(nightly.runs()).isEqualTo(1);
			});
	}

	@Configuration(proxyBeanMethods = false)
	static class NightlyConfiguration {

		@Bean
		Nightly nightly() {
			return new Nightly();
		}

	}

	static class Nightly {

		private int runs;

		@DistributedLock(key = "'nightly'", waitTime = "0", onFailure = OnLockFailure.SKIP)
		void run() {
			this.runs++;
		}

		int runs() {
			return this.runs;
		}

	}

}
