package dev.zklock.autoconfigure.zookeeper;

import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.UnknownHostException;
import java.time.Duration;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.zookeeper.client.StaticHostProvider;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.slf4j.LoggerFactory;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * What an application logs while ZooKeeper is out of reach from its start: one warning
 * for the outage, one for a server name that does not resolve and one line when it
 * resolves, and from ZooKeeper, Curator and zklock no error and no stack trace. The
 * client's reconnection attempts ({@code org.apache.zookeeper.ClientCnxn}) log at
 * {@code error} here, as {@link ZooKeeperClientLogLevel} makes them by default in an
 * application.
 */
class ZooKeeperOutageLogTests {

	private static final List<String> LOGGERS = List.of("org.apache.zookeeper", "org.apache.curator", "dev.zklock");

	/**
	 * Longer than Curator's connection timeout (15 s) and than its retries of a
	 * background operation with the default retry properties (about 18 s).
	 */
	private static final Duration OUTAGE = Duration.ofSeconds(25);

	private static final String NAME = "zookeeper.zklock.test";

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner().withConfiguration(
			AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class));

	private final ListAppender<ILoggingEvent> log = new ListAppender<>();

	@BeforeEach
	void captureLog() {
		this.log.start();
		LOGGERS.forEach((name) -> ((Logger) LoggerFactory.getLogger(name)).addAppender(this.log));
	}

	@AfterEach
	void releaseLog() {
		LOGGERS.forEach((name) -> ((Logger) LoggerFactory.getLogger(name)).detachAppender(this.log));
		this.log.stop();
	}

	@Test
	void anUnreachableServerAtStartUpIsOneWarningAndNoError() {
		String connectString = "127.0.0.1:" + freePort();
		this.contextRunner.withPropertyValues("distributed-lock.zookeeper.connect-string=" + connectString)
			.run((context) -> {
				quietFor(OUTAGE);
				assertThat(warnings()).singleElement()
					.satisfies(
							(warning) -> assertThat(warning).contains("No connection to ZooKeeper (" + connectString));
			});
	}

	@Test
	void aServerNameThatDoesNotResolveIsOneWarningNamingItAndNoError() {
		this.contextRunner.withPropertyValues("distributed-lock.zookeeper.connect-string=no-such-host.invalid:2181")
			.run((context) -> {
				quietFor(OUTAGE);
				assertThat(warnings()).hasSize(2)
					.anySatisfy((warning) -> assertThat(warning)
						.contains("ZooKeeper server name 'no-such-host.invalid' in distributed-lock.zookeeper."
								+ "connect-string does not resolve"))
					.anySatisfy((warning) -> assertThat(warning).contains("No connection to ZooKeeper"));
			});
	}

	@Test
	void aServerNameThatResolvesLaterIsOneWarningThenOneLineAndLockingWorks() {
		String port = zookeeper.connectString().substring(zookeeper.connectString().lastIndexOf(':') + 1);
		SwitchedResolver resolver = new SwitchedResolver();
		this.contextRunner.withPropertyValues("distributed-lock.zookeeper.connect-string=" + NAME + ":" + port)
			.withBean(CuratorFrameworkBuilderCustomizer.class,
					() -> (builder) -> builder
						.zookeeperFactory(new ZooKeeperHandleFactory(resolver, Duration.ofSeconds(1))))
			.run((context) -> {
				await().atMost(OUTAGE).until(() -> !warnings().isEmpty());
				int lookupsAtWarning = resolver.lookups.get();
				await().atMost(OUTAGE).until(() -> resolver.lookups.get() >= lookupsAtWarning + 3);
				assertThat(problems()).isEmpty();
				assertThat(warnings()).singleElement()
					.satisfies((warning) -> assertThat(warning).contains("'" + NAME + "'"));
				resolver.resolves.set(true);
				CuratorFramework client = context.getBean(CuratorFramework.class);
				await().atMost(OUTAGE).until(() -> client.getZookeeperClient().isConnected());
				String result = context.getBean(LockTemplate.class).execute("resolved", (lock) -> "locked");
				assertThat(result).isEqualTo("locked");
				assertThat(lines(Level.INFO, ServerNameResolver.class)).singleElement()
					.satisfies((line) -> assertThat(line).contains("'" + NAME + "' resolves now"));
				assertThat(problems()).isEmpty();
				assertThat(warnings()).hasSize(1);
			});
	}

	/**
	 * Waits for the duration from the start of the context, failing as soon as an error
	 * or a stack trace is logged.
	 */
	private void quietFor(Duration duration) {
		await().during(duration).atMost(duration.plusSeconds(10)).untilAsserted(() -> assertThat(problems()).isEmpty());
	}

	private List<String> problems() {
		return events().stream()
			.filter((event) -> event.getLevel().isGreaterOrEqual(Level.ERROR) || event.getThrowableProxy() != null)
			.map(ZooKeeperOutageLogTests::describe)
			.toList();
	}

	private List<String> warnings() {
		return events().stream()
			.filter((event) -> event.getLevel() == Level.WARN)
			.map(ZooKeeperOutageLogTests::describe)
			.toList();
	}

	private List<String> lines(Level level, Class<?> source) {
		return events().stream()
			.filter((event) -> event.getLevel() == level && event.getLoggerName().equals(source.getName()))
			.map(ZooKeeperOutageLogTests::describe)
			.toList();
	}

	private List<ILoggingEvent> events() {
		synchronized (this.log) {
			return List.copyOf(this.log.list);
		}
	}

	private static String describe(ILoggingEvent event) {
		return event.getLevel() + " " + event.getLoggerName() + ": " + event.getFormattedMessage()
				+ ((event.getThrowableProxy() != null) ? " [" + event.getThrowableProxy().getClassName() + "]" : "");
	}

	private static int freePort() {
		try (ServerSocket socket = new ServerSocket(0)) {
			return socket.getLocalPort();
		}
		catch (IOException ex) {
			throw new IllegalStateException(ex);
		}
	}

	/**
	 * Resolves {@link #NAME} to the loopback address once switched on, and no name
	 * before.
	 */
	private static final class SwitchedResolver implements StaticHostProvider.Resolver {

		private final AtomicBoolean resolves = new AtomicBoolean();

		private final AtomicInteger lookups = new AtomicInteger();

		@Override
		public InetAddress[] getAllByName(String name) throws UnknownHostException {
			this.lookups.incrementAndGet();
			if (!this.resolves.get() || !name.equals(NAME)) {
				throw new UnknownHostException(name + ": not resolvable yet in this test");
			}
			return new InetAddress[] { InetAddress.getLoopbackAddress() };
		}

	}

}
