package dev.zklock.autoconfigure.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.atomic.AtomicLong;

import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ReplyHoldingProxy;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.AcquiredLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.framework.imps.CuratorFrameworkState;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ConfigurableApplicationContext;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * {@code distributed-lock.zookeeper.sessions} against a real ZooKeeper server: the
 * auto-configured registry spreads its keys over that many sessions, whose clients start
 * and close with the application context (together, so that a frozen ZooKeeper holds
 * shutdown up once for them all); the application's own client is the one session; a
 * number out of range fails start-up.
 */
class LockSessionClientsTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	private static final int KEYS = 30;

	private static final Duration CLOSE_TIMEOUT = Duration.ofSeconds(2);

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper);

	@Test
	void keysSpreadOverTheConfiguredSessionsWhoseClientsCloseWithTheContext() {
		List<CuratorFramework> clients = new ArrayList<>();
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.sessions=3", "distributed-lock.zookeeper.namespace=apps")
			.run((context) -> {
				assertThat(context).hasSingleBean(CuratorFramework.class).hasSingleBean(LockSessionClients.class);
				clients.add(context.getBean(CuratorFramework.class));
				clients.addAll(context.getBean(LockSessionClients.class).clients());
				assertThat(clients).hasSize(3).doesNotHaveDuplicates().allSatisfy((client) -> {
					assertThat(client.getState()).isEqualTo(CuratorFrameworkState.STARTED);
					assertThat(client.getNamespace()).isEqualTo("apps");
				});
				assertThat(sessionsOfHeldKeys(context.getBean(ZooKeeperLockRegistry.class)))
					.containsExactlyInAnyOrderElementsOf(sessionIds(clients));
			});
		assertThat(clients).extracting(CuratorFramework::getState).containsOnly(CuratorFrameworkState.STOPPED);
	}

	@Test
	void byDefaultTheKeysShareTheOneSession() {
		this.contextRunner.run((context) -> {
			assertThat(context.getBean(LockSessionClients.class).clients()).isEmpty();
			assertThat(sessionsOfHeldKeys(context.getBean(ZooKeeperLockRegistry.class)))
				.containsExactlyElementsOf(sessionIds(List.of(context.getBean(CuratorFramework.class))));
		});
	}

	@Test
	void theApplicationsOwnClientIsTheOneSession() {
		this.contextRunner.withUserConfiguration(UserClientConfiguration.class)
			.withPropertyValues("distributed-lock.zookeeper.sessions=3")
			.run((context) -> {
				assertThat(context).hasSingleBean(CuratorFramework.class).doesNotHaveBean(LockSessionClients.class);
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client).isSameAs(context.getBean(UserClientConfiguration.class).client);
				assertThat(sessionsOfHeldKeys(context.getBean(ZooKeeperLockRegistry.class)))
					.containsExactlyElementsOf(sessionIds(List.of(client)));
			});
	}

	@Test
	void theApplicationsOwnRegistryGetsNoFurtherSessions() {
		this.contextRunner.withUserConfiguration(UserRegistryConfiguration.class)
			.withPropertyValues("distributed-lock.zookeeper.sessions=3")
			.run((context) -> assertThat(context).hasNotFailed()
				.hasSingleBean(ZooKeeperLockRegistry.class)
				.doesNotHaveBean(LockSessionClients.class));
	}

	@Test
	void theSessionsCloseTogetherWhileZooKeeperIsFrozen() throws Exception {
		AtomicLong closeNanos = new AtomicLong();
		try (ReplyHoldingProxy proxy = ReplyHoldingProxy.start(zookeeper.connectString())) {
			this.contextRunner
				.withPropertyValues("distributed-lock.zookeeper.connect-string=" + proxy.connectString(),
						"distributed-lock.zookeeper.sessions=4",
						"distributed-lock.zookeeper.close-timeout=" + CLOSE_TIMEOUT.toMillis() + "ms")
				.run((context) -> {
					assertThat(sessionsOfHeldKeys(context.getBean(ZooKeeperLockRegistry.class))).hasSize(4);
					proxy.holdReplies();
					long start = System.nanoTime();
					context.getSourceApplicationContext(ConfigurableApplicationContext.class).close();
					closeNanos.set(System.nanoTime() - start);
				});
		}
		// two close timeouts: the further sessions' together, then the first's (closed
		// one after the other, the four took 6.7 s of the 8 s they could)
		assertThat(Duration.ofNanos(closeNanos.get())).isLessThan(CLOSE_TIMEOUT.multipliedBy(3));
	}

	@ParameterizedTest
	@ValueSource(ints = { 0, -1, 33, Integer.MIN_VALUE })
	void sessionsOutOfRangeFailStartUpNamingThePropertyAndTheValue(int sessions) {
		this.contextRunner.withPropertyValues("distributed-lock.zookeeper.sessions=" + sessions)
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.isInstanceOfSatisfying(InvalidConfigurationPropertyValueException.class, (ex) -> {
					assertThat(ex.getName()).isEqualTo("distributed-lock.zookeeper.sessions");
					assertThat(ex.getValue()).isEqualTo(sessions);
					assertThat(ex.getReason()).contains("from 1 to 32");
				}));
	}

	/**
	 * Holds the lock of each of {@link #KEYS} keys at once, then releases them.
	 * @return the sessions of the keys' lock nodes, read while they are held
	 */
	private static Set<String> sessionsOfHeldKeys(ZooKeeperLockRegistry registry) {
		Set<String> sessions = new TreeSet<>();
		List<AcquiredLock> held = new ArrayList<>();
		try {
			for (int i = 0; i < KEYS; i++) {
				String key = "order:" + i;
				held.add(registry.acquire(key, WAIT));
				sessions.add(registry.queueOf(key).get(0).sessionId());
			}
		}
		finally {
			held.forEach(AcquiredLock::release);
		}
		return sessions;
	}

	private static List<String> sessionIds(List<CuratorFramework> clients) throws Exception {
		List<String> sessionIds = new ArrayList<>();
		for (CuratorFramework client : clients) {
			sessionIds.add(Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId()));
		}
		return sessionIds;
	}

	@Configuration(proxyBeanMethods = false)
	static class UserClientConfiguration {

		final CuratorFramework client = CuratorFrameworkFactory.newClient(zookeeper.connectString(),
				new RetryOneTime(100));

		@Bean(destroyMethod = "close")
		CuratorFramework userCuratorFramework() {
			this.client.start();
			return this.client;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserRegistryConfiguration {

		@Bean
		ZooKeeperLockRegistry userLockRegistry(CuratorFramework curatorFramework) {
			return new ZooKeeperLockRegistry(curatorFramework, "/user-locks");
		}

	}

}
