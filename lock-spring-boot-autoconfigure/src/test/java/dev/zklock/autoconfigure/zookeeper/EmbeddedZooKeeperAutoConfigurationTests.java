package dev.zklock.autoconfigure.zookeeper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Properties;
import java.util.concurrent.TimeUnit;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.testsupport.BusyMachine;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.KeeperException;
import org.apache.zookeeper.ZooKeeper;
import org.apache.zookeeper.server.ServerCnxnFactory;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.diagnostics.FailureAnalyzer;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;
import org.springframework.core.io.FileSystemResource;
import org.springframework.core.io.support.PropertiesLoaderUtils;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

@ExtendWith(OutputCaptureExtension.class)
class EmbeddedZooKeeperAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(EmbeddedZooKeeperAutoConfiguration.class,
				ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class));

	@Test
	void portInUseFailsStartUpNamingTheProperty() throws Exception {
		try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			long start = System.nanoTime();
			this.contextRunner
				.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
						"distributed-lock.zookeeper.embedded.port=" + taken.getLocalPort())
				.run((context) -> {
					assertThat(context).hasFailed();
					assertThat(context.getStartupFailure())
						.hasMessageContaining("distributed-lock.zookeeper.embedded.port")
						.hasMessageContaining(Integer.toString(taken.getLocalPort()));
				});
			assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(BusyMachine.MARGIN);
		}
	}

	@Test
	void portInUseIsReportedWithTheAdviceToUseTheServerOfTheInstanceOnIt() throws Exception {
		try (ServerSocket taken = new ServerSocket(0, 1, InetAddress.getLoopbackAddress())) {
			int port = taken.getLocalPort();
			this.contextRunner
				.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
						"distributed-lock.zookeeper.embedded.port=" + port)
				.run((context) -> {
					FailureAnalysis analysis = new EmbeddedServerPortInUseFailureAnalyzer()
						.analyze(context.getStartupFailure());
					assertThat(analysis).isNotNull();
					assertThat(analysis.getDescription()).contains("127.0.0.1:" + port + ", which is in use");
					assertThat(analysis.getAction())
						.contains("'distributed-lock.zookeeper.connect-string=127.0.0.1:" + port + "'")
						.contains("'distributed-lock.zookeeper.embedded.enabled=false'")
						.doesNotContain("or 0 for any");
				});
		}
		Properties factories = PropertiesLoaderUtils.loadProperties(
				new FileSystemResource(Path.of("src", "main", "resources", "META-INF", "spring.factories")));
		assertThat(factories.getProperty(FailureAnalyzer.class.getName()).split(","))
			.contains(EmbeddedServerPortInUseFailureAnalyzer.class.getName());
	}

	@Test
	void embeddedServerBesideAConnectStringWarnsThatInstancesWouldNotExcludeEachOther(CapturedOutput output) {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
					"distributed-lock.zookeeper.embedded.port=0", "distributed-lock.zookeeper.connect-string=zk1:2181")
			.run((context) -> {
				assertThat(context).hasNotFailed();
				assertThat(output).contains("WARN")
					.contains("'distributed-lock.zookeeper.connect-string' (zk1:2181) is set too, and ignored")
					.contains("not other instances with servers of their own");
			});
	}

	@Test
	void embeddedServerUnderAProductionProfileWarnsButNotUnderADevelopmentOne(CapturedOutput output) {
		ApplicationContextRunner embedded = this.contextRunner.withPropertyValues(
				"distributed-lock.zookeeper.embedded.enabled=true", "distributed-lock.zookeeper.embedded.port=0");
		embedded.withInitializer((context) -> context.getEnvironment().setActiveProfiles("dev", "local"))
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).doesNotContain("not other instances with servers of their own");
		embedded.withInitializer((context) -> context.getEnvironment().setActiveProfiles("dev", "prod"))
			.run((context) -> assertThat(context).hasNotFailed());
		assertThat(output).contains("profiles [prod] are active, which are not development or test profiles");
	}

	@Test
	void aServerWithZooKeepersDefaultTickGrantsTheDefaultSessionUnchanged() {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
					"distributed-lock.zookeeper.embedded.port=0")
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
				assertThat(client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs()).isEqualTo(30_000);
			});
	}

	@Test
	void serverHasALimitOfConnectionsSoZooKeeperDoesNotWarnThatItHasNone() {
		Logger logger = (Logger) LoggerFactory.getLogger(ServerCnxnFactory.class);
		Level level = logger.getLevel();
		ListAppender<ILoggingEvent> events = new ListAppender<>();
		events.start();
		logger.addAppender(events);
		logger.setLevel(Level.INFO);
		try {
			this.contextRunner
				.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
						"distributed-lock.zookeeper.embedded.port=0")
				.run((context) -> assertThat(context).hasSingleBean(EmbeddedZooKeeperServer.class));
		}
		finally {
			logger.setLevel(level);
			logger.detachAppender(events);
		}
		assertThat(events.list).extracting(ILoggingEvent::getFormattedMessage)
			.contains("maxCnxns configured value is " + EmbeddedZooKeeperServer.MAX_CONNECTIONS + ".")
			.noneMatch((message) -> message.contains("not configured"));
		assertThat(events.list).extracting(ILoggingEvent::getLevel).doesNotContain(Level.WARN);
	}

	@Test
	void fencingTokensKeepGrowingAcrossRestartsOnADataDirectory(@TempDir Path data) {
		ApplicationContextRunner embedded = this.contextRunner.withPropertyValues(
				"distributed-lock.zookeeper.embedded.enabled=true", "distributed-lock.zookeeper.embedded.port=0",
				"distributed-lock.zookeeper.embedded.data-directory=" + data);
		long[] tokens = new long[2];
		for (int run = 0; run < 2; run++) {
			int index = run;
			embedded.run((context) -> tokens[index] = context.getBean(LockTemplate.class)
				.execute("restarted", Duration.ofSeconds(10), (lock) -> lock.fencingToken()));
		}
		assertThat(tokens[1]).isGreaterThan(tokens[0]);
	}

	@Test
	void missingServerDependenciesFailStartUpOnceNamingEveryArtifactAndTheDependencyToAdd() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("com.codahale.metrics", "org.xerial.snappy"))
			.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
					"distributed-lock.zookeeper.embedded.port=0")
			.run((context) -> {
				assertThat(context).hasFailed();
				FailureAnalysis analysis = new MissingEmbeddedServerDependenciesFailureAnalyzer()
					.analyze(context.getStartupFailure());
				assertThat(analysis).isNotNull();
				assertThat(analysis.getDescription()).contains("distributed-lock.zookeeper.embedded.enabled=true")
					.contains("io.dropwizard.metrics:metrics-core and org.xerial.snappy:snappy-java");
				assertThat(analysis.getAction()).contains("""
						    <dependency>
						        <groupId>dev.zklock</groupId>
						        <artifactId>lock-embedded-zookeeper</artifactId>
						    </dependency>
						""").contains("'distributed-lock.zookeeper.connect-string'");
			});
	}

	@Test
	void oneMissingServerDependencyIsNamedAlone() {
		this.contextRunner.withClassLoader(new FilteredClassLoader("org.xerial.snappy"))
			.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
					"distributed-lock.zookeeper.embedded.port=0")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOfSatisfying(MissingEmbeddedServerDependenciesException.class,
						(missing) -> assertThat(missing.getArtifacts())
							.containsExactly("org.xerial.snappy:snappy-java"))
				.hasMessageContaining("dev.zklock:lock-embedded-zookeeper"));
	}

	@Test
	void failureAnalyzerIsRegisteredForSpringBootToReport() throws IOException {
		Properties factories = PropertiesLoaderUtils.loadProperties(
				new FileSystemResource(Path.of("src", "main", "resources", "META-INF", "spring.factories")));
		assertThat(factories.getProperty(FailureAnalyzer.class.getName()).split(","))
			.contains(MissingEmbeddedServerDependenciesFailureAnalyzer.class.getName());
	}

	@Test
	void portOutOfRangeFailsStartUpNamingTheProperty() {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
					"distributed-lock.zookeeper.embedded.port=70000")
			.run((context) -> assertThat(context).getFailure()
				.hasMessageContaining("distributed-lock.zookeeper.embedded.port"));
	}

	@Test
	void isOffByDefault() {
		this.contextRunner.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2181")
			.run((context) -> assertThat(context).doesNotHaveBean(EmbeddedZooKeeperServer.class));
	}

	@Test
	void startsARealServerThatTheLocksUseAndStopsItOnClose(@TempDir Path data) throws Exception {
		String[] connectString = new String[1];
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.embedded.enabled=true",
					"distributed-lock.zookeeper.embedded.port=0",
					"distributed-lock.zookeeper.embedded.data-directory=" + data,
					"distributed-lock.zookeeper.connect-string=unused.invalid:2181")
			.run((context) -> {
				assertThat(context).hasSingleBean(EmbeddedZooKeeperServer.class);
				connectString[0] = context.getBean(EmbeddedZooKeeperServer.class).getConnectString();
				assertThat(connectString[0]).startsWith("127.0.0.1:").doesNotEndWith(":0");
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(connectString[0]);
				long token = context.getBean(LockTemplate.class).execute("embedded", Duration.ofSeconds(10), (lock) -> {
					assertThat(client.getChildren().forPath("/locks")).contains("embedded");
					return lock.fencingToken();
				});
				assertThat(token).isPositive();
			});
		assertThat(data.resolve("version-2")).isDirectory();
		ZooKeeper probe = new ZooKeeper(connectString[0], 1_000, (event) -> {
		});
		try {
			assertThatExceptionOfType(KeeperException.ConnectionLossException.class)
				.isThrownBy(() -> probe.exists("/", false));
		}
		finally {
			probe.close();
		}
	}

}
