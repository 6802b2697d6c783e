package dev.zklock.autoconfigure;

import java.io.IOException;
import java.net.ServerSocket;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.zookeeper.CuratorFrameworkBuilderCustomizer;
import dev.zklock.autoconfigure.zookeeper.LockSessionClients;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.testsupport.BusyMachine;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.test.InstanceSpec;
import org.apache.curator.test.TestingServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Start-up while no ZooKeeper server answers, and what happens when one appears.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZooKeeperUnreachableAtStartupTests {

	private final int port = freePort();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:" + this.port,
				"distributed-lock.zookeeper.session-timeout=4s", "distributed-lock.zookeeper.connection-timeout=1s");

	@Test
	void startsAtOnceByDefaultAndLocksOnceZooKeeperAppears() throws Exception {
		long start = System.nanoTime();
		this.contextRunner.run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BusyMachine.MARGIN);
			LockTemplate template = context.getBean(LockTemplate.class);
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> template.execute("early", Duration.ofMillis(500), (lock) -> "never"))
				.withMessageContaining("no connection to ZooKeeper (127.0.0.1:" + this.port + ")");
			try (TestingServer server = serverOn(this.port)) {
				String result = template.execute("early", Duration.ofSeconds(20), (lock) -> "locked");
				assertThat(result).isEqualTo("locked");
			}
		});
	}

	@Test
	void connectionWaitWithFailureFailsStartUpNamingTheConnectString() {
		this.contextRunner
			.withPropertyValues("distributed-lock.startup.connection-wait=300ms",
					"distributed-lock.startup.fail-without-connection=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).isInstanceOf(IllegalStateException.class)
					.hasMessageContaining("No connection to ZooKeeper (127.0.0.1:" + this.port + ") within 300ms")
					.hasMessageContaining("distributed-lock.zookeeper.connect-string");
			});
	}

	@Test
	void connectionWaitWithoutFailureWarnsAndStarts(CapturedOutput output) {
		this.contextRunner.withPropertyValues("distributed-lock.startup.connection-wait=300ms").run((context) -> {
			assertThat(context).hasNotFailed();
			assertThat(output).contains("No connection to ZooKeeper (127.0.0.1:" + this.port + ") within 300ms");
		});
	}

	@Test
	void connectionWaitSucceedsQuietlyWhenZooKeeperAnswers(CapturedOutput output) throws Exception {
		try (TestingServer server = serverOn(this.port)) {
			this.contextRunner
				.withPropertyValues("distributed-lock.startup.connection-wait=60s",
						"distributed-lock.startup.fail-without-connection=true")
				.run((context) -> assertThat(context).hasNotFailed());
		}
		assertThat(output).doesNotContain("No connection to ZooKeeper");
	}

	/**
	 * The connection wait covers every session of the lock registry: a further session
	 * that cannot connect is named at start-up though the main client is connected. The
	 * third client built connects to a port where no server listens.
	 */
	@Test
	void connectionWaitCoversEverySession(CapturedOutput output) throws Exception {
		int deadPort = freePort();
		AtomicInteger builds = new AtomicInteger();
		CuratorFrameworkBuilderCustomizer lastToADeadPort = (builder) -> {
			if (builds.incrementAndGet() == 3) {
				builder.connectString("127.0.0.1:" + deadPort);
			}
		};
		try (TestingServer server = serverOn(this.port)) {
			this.contextRunner.withBean(CuratorFrameworkBuilderCustomizer.class, () -> lastToADeadPort)
				.withPropertyValues("distributed-lock.zookeeper.sessions=3",
						// long enough for the first two to connect on a busy machine
						"distributed-lock.startup.connection-wait=5s")
				.run((context) -> {
					assertThat(context).hasNotFailed();
					assertThat(context.getBean(CuratorFramework.class).getZookeeperClient().isConnected()).isTrue();
					assertThat(context.getBean(LockSessionClients.class).clients())
						.extracting((client) -> client.getZookeeperClient().getCurrentConnectionString())
						.containsExactly("127.0.0.1:" + this.port, "127.0.0.1:" + deadPort);
					assertThat(output)
						.contains("No connection to ZooKeeper (127.0.0.1:" + deadPort + ") within 5000ms");
				});
		}
	}

	@Test
	void failingWithoutConnectionNeedsAConnectionWait() {
		this.contextRunner.withPropertyValues("distributed-lock.startup.fail-without-connection=true")
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure())
					.hasMessageContaining("distributed-lock.startup.fail-without-connection")
					.hasMessageContaining("distributed-lock.startup.connection-wait");
			});
	}

	@Test
	void negativeConnectionWaitFailsStartUpNamingTheProperty() {
		this.contextRunner.withPropertyValues("distributed-lock.startup.connection-wait=-1s").run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).hasMessageContaining("distributed-lock.startup.connection-wait");
		});
	}

	private static TestingServer serverOn(int port) throws Exception {
		InstanceSpec spec = new InstanceSpec(null, port, -1, -1, true, -1, 500, -1,
				Map.of("clientPortAddress", "127.0.0.1"), "127.0.0.1");
		return new TestingServer(spec, true);
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

}
