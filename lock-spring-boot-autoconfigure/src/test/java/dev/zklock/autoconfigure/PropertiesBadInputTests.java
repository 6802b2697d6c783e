package dev.zklock.autoconfigure;

import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.atomic.AtomicReference;
import java.util.stream.Stream;

import dev.zklock.LockTemplate;
import dev.zklock.autoconfigure.zookeeper.EmbeddedZooKeeperAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.MissingConnectStringException;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.BeforeAll;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.bind.BindException;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Bad {@code distributed-lock.*} values fail start-up with an exception naming the
 * property: {@link InvalidConfigurationPropertyValueException} for a value of the right
 * type that makes no sense, {@link BindException} for one that is not of the property's
 * type at all. Extreme values that make sense start an application that locks.
 */
class PropertiesBadInputTests {

	private static final Class<InvalidConfigurationPropertyValueException> INVALID = InvalidConfigurationPropertyValueException.class;

	private static final Class<BindException> UNBOUND = BindException.class;

	private static final String LONGEST = "PT" + Long.MAX_VALUE + "S";

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@TempDir
	static Path files;

	private static Path regularFile;

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withConfiguration(AutoConfigurations.of(EmbeddedZooKeeperAutoConfiguration.class));

	@BeforeAll
	static void createFile() throws Exception {
		regularFile = Files.writeString(files.resolve("not-a-directory"), "data");
	}

	static Stream<Arguments> badValuesFailStartUpNamingTheProperty() {
		List<Arguments> cases = new ArrayList<>();
		for (String rootPath : new String[] { "", "locks", "/", "/locks/", "//locks", "/a//b", "/a/./b", "/a/../b",
				"/lo\u0001cks", "/lo\uD800cks" }) {
			cases.add(invalid("distributed-lock.root-path", rootPath));
		}
		for (String waitTime : new String[] { "-1s", "-1ns", "-" + LONGEST }) {
			cases.add(invalid("distributed-lock.wait-time", waitTime));
		}
		for (String waitTime : new String[] { "soon", "99999999999999999999s", Long.MAX_VALUE + "d", "5 s" }) {
			cases.add(unbound("distributed-lock.wait-time", waitTime));
		}
		cases.add(unbound("distributed-lock.wrap-transaction", "perhaps"));
		for (String maxCount : new String[] { "-1", "4096", "2147483647", "-2147483648" }) {
			cases.add(invalid("distributed-lock.hand-off.max-count", maxCount));
		}
		cases.add(unbound("distributed-lock.hand-off.max-count", "2147483648"));
		cases.add(unbound("distributed-lock.hand-off.max-count", "many"));
		cases.add(invalid("distributed-lock.hand-off.max-time", "-5ms"));
		cases.add(unbound("distributed-lock.hand-off.max-time", "soon"));
		cases.add(unbound("distributed-lock.hand-off.enabled", "perhaps"));
		cases.add(invalid("distributed-lock.startup.connection-wait", "-1s"));
		cases.add(unbound("distributed-lock.startup.connection-wait", "soon"));
		cases.add(failure(INVALID, "distributed-lock.startup.fail-without-connection",
				"distributed-lock.startup.fail-without-connection=true",
				"distributed-lock.startup.connection-wait=0s"));
		cases.add(unbound("distributed-lock.lost-lock.trigger", "expired"));
		cases.add(unbound("distributed-lock.lost-lock.actions", "kill"));
		cases.add(failure(MissingConnectStringException.class, "distributed-lock.zookeeper.connect-string",
				"distributed-lock.zookeeper.connect-string="));
		for (String connectString : new String[] { "zk1:notaport", "zk1:99999", "zk1:-1", "zk1:2181/a/",
				"zk1:2181/a//b", "[::1:2181", ":2181", ",", ",,,", "zk1:2181,:2182" }) {
			cases.add(invalid("distributed-lock.zookeeper.connect-string", connectString));
		}
		for (String property : new String[] { "session-timeout", "connection-timeout", "close-timeout",
				"retry.base-sleep", "retry.max-sleep" }) {
			for (String duration : new String[] { "-1s", "0s", "25d", LONGEST }) {
				cases.add(invalid("distributed-lock.zookeeper." + property, duration));
			}
			cases.add(unbound("distributed-lock.zookeeper." + property, "soon"));
		}
		for (String maxRetries : new String[] { "-1", "30", "2147483647", "-2147483648" }) {
			cases.add(invalid("distributed-lock.zookeeper.retry.max-retries", maxRetries));
		}
		cases.add(unbound("distributed-lock.zookeeper.retry.max-retries", "2147483648"));
		for (String sessions : new String[] { "0", "-1", "33", "2147483647", "-2147483648" }) {
			cases.add(invalid("distributed-lock.zookeeper.sessions", sessions));
		}
		cases.add(unbound("distributed-lock.zookeeper.sessions", "2147483648"));
		cases.add(unbound("distributed-lock.zookeeper.sessions", "many"));
		for (String namespace : new String[] { "/leading", "trailing/", "a//b", "a/./b", "a/../b", "a\u0001b" }) {
			cases.add(invalid("distributed-lock.zookeeper.namespace", namespace));
		}
		for (String port : new String[] { "-1", "65536", "2147483647" }) {
			cases.add(failure(INVALID, "distributed-lock.zookeeper.embedded.port",
					"distributed-lock.zookeeper.embedded.enabled=true",
					"distributed-lock.zookeeper.embedded.port=" + port));
		}
		cases.add(failure(UNBOUND, "distributed-lock.zookeeper.embedded.port",
				"distributed-lock.zookeeper.embedded.enabled=true",
				"distributed-lock.zookeeper.embedded.port=2147483648"));
		cases.add(failure(INVALID, "distributed-lock.zookeeper.embedded.data-directory",
				"distributed-lock.zookeeper.embedded.enabled=true", "distributed-lock.zookeeper.embedded.port=0",
				"distributed-lock.zookeeper.embedded.data-directory=" + regularFile));
		cases.add(invalid("distributed-lock.zookeeper.authentication.scheme", "sasl"));
		cases.add(invalid("distributed-lock.zookeeper.authentication.scheme", ""));
		cases.add(failure(INVALID, "distributed-lock.zookeeper.authentication.username",
				"distributed-lock.zookeeper.authentication.username=app:1",
				"distributed-lock.zookeeper.authentication.password=secret"));
		cases.add(failure(INVALID, "distributed-lock.zookeeper.authentication.username",
				"distributed-lock.zookeeper.authentication.username=",
				"distributed-lock.zookeeper.authentication.password=secret"));
		cases.add(failure(INVALID, "distributed-lock.zookeeper.authentication.password",
				"distributed-lock.zookeeper.authentication.username=app"));
		cases.add(failure(INVALID, "distributed-lock.zookeeper.authentication.username",
				"distributed-lock.zookeeper.authentication.password=secret"));
		cases.add(failure(INVALID, "distributed-lock.zookeeper.authentication.password",
				"distributed-lock.zookeeper.authentication.username=app",
				"distributed-lock.zookeeper.authentication.password="));
		cases.add(failure(INVALID, "distributed-lock.zookeeper.ssl.key-store-location",
				"distributed-lock.zookeeper.ssl.enabled=true",
				"distributed-lock.zookeeper.ssl.key-store-location=" + files.resolve("missing.p12")));
		cases.add(failure(INVALID, "distributed-lock.zookeeper.ssl.trust-store-location",
				"distributed-lock.zookeeper.ssl.enabled=true",
				"distributed-lock.zookeeper.ssl.trust-store-password=secret"));
		cases.add(failure(INVALID, "distributed-lock.zookeeper.ssl.key-store-type",
				"distributed-lock.zookeeper.ssl.enabled=true",
				"distributed-lock.zookeeper.ssl.key-store-location=" + regularFile,
				"distributed-lock.zookeeper.ssl.key-store-type=XYZ"));
		cases.add(failure(INVALID, "distributed-lock.zookeeper.ssl.trust-store-location",
				"distributed-lock.zookeeper.ssl.enabled=true",
				"distributed-lock.zookeeper.ssl.trust-store-location=" + regularFile,
				"distributed-lock.zookeeper.ssl.trust-store-type=PKCS12"));
		return cases.stream();
	}

	@ParameterizedTest
	@MethodSource
	void badValuesFailStartUpNamingTheProperty(Class<? extends Throwable> type, String property, String[] values) {
		this.contextRunner.withPropertyValues(values).run((context) -> {
			assertThat(context).hasFailed();
			Throwable failure = context.getStartupFailure();
			while (failure != null && !type.isInstance(failure)) {
				failure = failure.getCause();
			}
			assertThat(failure).as("a %s in %s", type.getSimpleName(), context.getStartupFailure()).isNotNull();
			assertThat(failure).hasMessageContaining(property);
		});
	}

	@ParameterizedTest
	@ValueSource(strings = { "distributed-lock.wait-time=" + LONGEST, "distributed-lock.hand-off.max-time=" + LONGEST,
			"distributed-lock.startup.connection-wait=" + LONGEST, "distributed-lock.hand-off.max-count=0",
			"distributed-lock.hand-off.max-count=4095", "distributed-lock.zookeeper.retry.max-retries=0",
			"distributed-lock.zookeeper.retry.max-retries=29", "distributed-lock.zookeeper.session-timeout=24d",
			"distributed-lock.zookeeper.sessions=32", "distributed-lock.root-path=/a/b/c/d/e/f/g/h/i/j",
			"distributed-lock.root-path=/l\u00F6cks:\u9396", "distributed-lock.zookeeper.namespace=apps/billing" })
	void extremeButValidValuesStartAnApplicationThatLocks(String property) {
		this.contextRunner.withPropertyValues(property).run((context) -> {
			assertThat(context).hasNotFailed();
			LockTemplate template = context.getBean(LockTemplate.class);
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			assertThat(template.<Boolean>execute("fuzz", Duration.ofSeconds(5), (lock) -> lock.isValid())).isTrue();
			assertThat(registry.heldLocks()).isEmpty();
		});
	}

	@Test
	void connectionWaitTooLongToCountInMillisecondsWaitsForTheConnection() throws Exception {
		CuratorFramework client = CuratorFrameworkFactory.newClient(zookeeper.connectString(), new RetryOneTime(100));
		try (ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/locks")) {
			DistributedLockProperties.Startup startup = new DistributedLockProperties.Startup();
			startup.setConnectionWait(Duration.parse(LONGEST));
			startup.setFailWithoutConnection(true);
			StartupConnectionCheck check = new StartupConnectionCheck(List.of(client), registry, startup);
			AtomicReference<Throwable> failure = new AtomicReference<>();
			Thread checking = new Thread(() -> {
				try {
					check.afterSingletonsInstantiated();
				}
				catch (Throwable ex) {
					failure.set(ex);
				}
			});
			checking.start();
			await().atMost(Duration.ofSeconds(10))
				.until(() -> checking.getState() == Thread.State.TIMED_WAITING || !checking.isAlive());
			client.start();
			checking.join(Duration.ofSeconds(60).toMillis());
			assertThat(failure).hasNullValue();
			assertThat(checking.isAlive()).isFalse();
		}
		finally {
			client.close();
		}
	}

	private static Arguments invalid(String property, String value) {
		return failure(INVALID, property, property + "=" + value);
	}

	private static Arguments unbound(String property, String value) {
		return failure(UNBOUND, property, property + "=" + value);
	}

	private static Arguments failure(Class<? extends Throwable> type, String property, String... values) {
		return Arguments.of(type, property, Named.of(Arrays.toString(values), values));
	}

}
