package dev.zklock.autoconfigure.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

import org.apache.curator.RetryPolicy;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.BoundedExponentialBackoffRetry;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.diagnostics.FailureAnalysis;
import org.springframework.boot.test.context.FilteredClassLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.annotation.Order;

import static org.assertj.core.api.Assertions.assertThat;

class ZooKeeperAutoConfigurationTests {

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration.class));

	@Test
	void defaultsAreCuratorsButForAShorterSession() {
		CuratorFrameworkFactory.Builder curatorDefaults = CuratorFrameworkFactory.builder();
		ZooKeeperProperties properties = new ZooKeeperProperties();
		assertThat(properties.getSessionTimeout()).isEqualTo(Duration.ofSeconds(30))
			.isLessThan(Duration.ofMillis(curatorDefaults.getSessionTimeoutMs()));
		assertThat(properties.getConnectionTimeout().toMillis()).isEqualTo(curatorDefaults.getConnectionTimeoutMs());
		assertThat(properties.getNamespace()).isEqualTo(curatorDefaults.getNamespace());
	}

	@Test
	void buildsAStartedClientFromTheProperties() {
		this.contextRunner.withUserConfiguration(BuilderCaptureConfiguration.class)
			.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2181,127.0.0.1:2182",
					"distributed-lock.zookeeper.session-timeout=20s",
					"distributed-lock.zookeeper.connection-timeout=3s", "distributed-lock.zookeeper.namespace=billing",
					"distributed-lock.zookeeper.retry.base-sleep=20ms",
					"distributed-lock.zookeeper.retry.max-retries=4",
					"distributed-lock.zookeeper.retry.max-sleep=300ms")
			.run((context) -> {
				assertThat(context).hasSingleBean(CuratorFramework.class);
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(client.getState()).hasToString("STARTED");
				assertThat(client.getNamespace()).isEqualTo("billing");
				assertThat(client.getZookeeperClient().getCurrentConnectionString())
					.isEqualTo("127.0.0.1:2181,127.0.0.1:2182");
				CuratorFrameworkFactory.Builder builder = context.getBean(BuilderCapture.class).builders.get(0);
				assertThat(builder.getSessionTimeoutMs()).isEqualTo(20_000);
				assertThat(builder.getConnectionTimeoutMs()).isEqualTo(3_000);
				RetryPolicy retryPolicy = builder.getRetryPolicy();
				assertThat(retryPolicy).isInstanceOfSatisfying(BoundedExponentialBackoffRetry.class, (retry) -> {
					assertThat(retry.getBaseSleepTimeMs()).isEqualTo(20);
					assertThat(retry.getN()).isEqualTo(4);
					assertThat(retry.getMaxSleepTimeMs()).isEqualTo(300);
				});
			});
	}

	@Test
	void furtherSessionsAreStartedClientsBuiltLikeTheFirst() {
		this.contextRunner.withUserConfiguration(BuilderCaptureConfiguration.class)
			.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2181",
					"distributed-lock.zookeeper.sessions=3", "distributed-lock.zookeeper.session-timeout=20s",
					"distributed-lock.zookeeper.connection-timeout=3s", "distributed-lock.zookeeper.namespace=billing",
					"distributed-lock.zookeeper.retry.max-retries=4")
			.run((context) -> {
				CuratorFramework client = context.getBean(CuratorFramework.class);
				assertThat(context.getBean(LockSessionClients.class).clients()).hasSize(2)
					.doesNotContain(client)
					.allSatisfy((session) -> {
						assertThat(session.getState()).hasToString("STARTED");
						assertThat(session.getNamespace()).isEqualTo("billing");
						assertThat(session.getZookeeperClient().getCurrentConnectionString())
							.isEqualTo("127.0.0.1:2181");
					});
				List<CuratorFrameworkFactory.Builder> builders = context.getBean(BuilderCapture.class).builders;
				assertThat(builders).hasSize(3).doesNotHaveDuplicates().allSatisfy((builder) -> {
					assertThat(builder.getSessionTimeoutMs()).isEqualTo(20_000);
					assertThat(builder.getConnectionTimeoutMs()).isEqualTo(3_000);
					assertThat(builder.getRetryPolicy()).isInstanceOfSatisfying(BoundedExponentialBackoffRetry.class,
							(retry) -> assertThat(retry.getN()).isEqualTo(4));
					assertThat(builder.getZookeeperFactory()).isInstanceOf(ZooKeeperHandleFactory.class);
					assertThat(builder.withEnsembleTracker()).isFalse();
				});
			});
	}

	@Test
	void oneSessionByDefaultHasNoFurtherClients() {
		this.contextRunner.withUserConfiguration(BuilderCaptureConfiguration.class)
			.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2181")
			.run((context) -> {
				assertThat(context.getBean(LockSessionClients.class).clients()).isEmpty();
				assertThat(context.getBean(BuilderCapture.class).builders).hasSize(1);
			});
	}

	@Test
	void customizersRunInOrderAfterTheProperties() {
		this.contextRunner.withUserConfiguration(BuilderCaptureConfiguration.class, RetryCustomizerConfiguration.class)
			.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2181")
			.run((context) -> {
				CuratorFrameworkFactory.Builder builder = context.getBean(BuilderCapture.class).builders.get(0);
				assertThat(builder.getRetryPolicy()).isInstanceOf(RetryOneTime.class);
			});
	}

	@Test
	void backsOffWhenTheApplicationDefinesItsOwnClient() {
		this.contextRunner.withUserConfiguration(UserClientConfiguration.class).run((context) -> {
			assertThat(context).hasNotFailed()
				.hasSingleBean(CuratorFramework.class)
				.doesNotHaveBean(LockSessionClients.class);
			assertThat(context.getBean(CuratorFramework.class))
				.isSameAs(context.getBean(UserClientConfiguration.class).client);
		});
	}

	@Test
	void usesConnectionDetailsFromABean() {
		this.contextRunner.withBean(ZooKeeperConnectionDetails.class, () -> () -> "127.0.0.1:2999")
			.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2181")
			.run((context) -> assertThat(
					context.getBean(CuratorFramework.class).getZookeeperClient().getCurrentConnectionString())
				.isEqualTo("127.0.0.1:2999"));
	}

	@Test
	void connectStringWrittenAsAListIsJoinedWithCommas() {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.connect-string[0]=127.0.0.1:2181",
					"distributed-lock.zookeeper.connect-string[1]=127.0.0.1:2182")
			.run((context) -> assertThat(
					context.getBean(CuratorFramework.class).getZookeeperClient().getCurrentConnectionString())
				.isEqualTo("127.0.0.1:2181,127.0.0.1:2182"));
	}

	@Test
	void badServerInAConnectStringListFailsStartUpNamingThePropertyAndTheJoinedList() {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.connect-string[0]=127.0.0.1:2181",
					"distributed-lock.zookeeper.connect-string[1]=zk2:notaport")
			.run((context) -> assertThat(context).getFailure()
				.rootCause()
				.hasMessageContaining("distributed-lock.zookeeper.connect-string")
				.hasMessageContaining("127.0.0.1:2181,zk2:notaport"));
	}

	@Test
	void failsStartUpNamingThePropertyWhenNoEnsembleIsConfigured() {
		this.contextRunner.run((context) -> {
			assertThat(context).hasFailed();
			assertThat(context.getStartupFailure()).rootCause()
				.isInstanceOf(MissingConnectStringException.class)
				.hasMessageContaining("distributed-lock.zookeeper.connect-string");
			FailureAnalysis analysis = new MissingConnectStringFailureAnalyzer().analyze(context.getStartupFailure());
			assertThat(analysis).isNotNull();
			assertThat(analysis.getAction()).contains("'distributed-lock.zookeeper.connect-string'")
				.contains("'distributed-lock.zookeeper.embedded.enabled=true'");
		});
	}

	@ParameterizedTest
	@CsvSource(delimiter = '=',
			value = { "connect-string=zk1:notaport", "connect-string=zk1:2181/bad//chroot", "session-timeout=-1s",
					"connection-timeout=0s", "retry.base-sleep=-50ms", "retry.max-sleep=30d", "retry.max-retries=-1",
					"namespace=/leading-slash", "sessions=0", "sessions=33" })
	void badValuesFailStartUpNamingTheProperty(String property, String value) {
		this.contextRunner
			.withPropertyValues("distributed-lock.zookeeper.connect-string=127.0.0.1:2181",
					"distributed-lock.zookeeper." + property + "=" + value)
			.run((context) -> {
				assertThat(context).hasFailed();
				assertThat(context.getStartupFailure()).hasMessageContaining("distributed-lock.zookeeper." + property);
			});
	}

	@Test
	void doesNothingWithoutCurator() {
		this.contextRunner.withClassLoader(new FilteredClassLoader(CuratorFramework.class))
			.run((context) -> assertThat(context).hasNotFailed()
				.doesNotHaveBean(CuratorFramework.class)
				.doesNotHaveBean(ZooKeeperConnectionDetails.class));
	}

	static class BuilderCapture {

		final List<CuratorFrameworkFactory.Builder> builders = new ArrayList<>();

	}

	@Configuration(proxyBeanMethods = false)
	static class BuilderCaptureConfiguration {

		@Bean
		BuilderCapture builderCapture() {
			return new BuilderCapture();
		}

		@Bean
		@Order(Integer.MAX_VALUE)
		CuratorFrameworkBuilderCustomizer capturingCustomizer(BuilderCapture capture) {
			return capture.builders::add;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class RetryCustomizerConfiguration {

		@Bean
		@Order(1)
		CuratorFrameworkBuilderCustomizer retryOnceCustomizer() {
			return (builder) -> builder.retryPolicy(new RetryOneTime(10));
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class UserClientConfiguration {

		final CuratorFramework client = CuratorFrameworkFactory.newClient("127.0.0.1:2999", new RetryOneTime(10));

		@Bean
		CuratorFramework userCuratorFramework() {
			return this.client;
		}

	}

}
