package dev.zklock.integration.aggregator;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.stream.IntStream;

import javax.sql.DataSource;

import dev.zklock.integration.ZooKeeperIntegrationLockRegistry;
import dev.zklock.integration.autoconfigure.IntegrationLockRegistryAutoConfiguration;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.assertj.core.api.InstanceOfAssertFactories;
import org.h2.Driver;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.core.io.ClassPathResource;
import org.springframework.integration.aggregator.AggregatingMessageHandler;
import org.springframework.integration.channel.QueueChannel;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.jdbc.store.JdbcMessageStore;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.integration.support.locks.LockRegistry;
import org.springframework.messaging.Message;
import org.springframework.jdbc.datasource.SimpleDriverDataSource;
import org.springframework.jdbc.datasource.init.ResourceDatabasePopulator;
import org.springframework.messaging.MessageChannel;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Spring Integration's aggregator ({@link AggregatingMessageHandler}) in two applications
 * whose JDBC message stores share one database, as instances of a service do, each
 * locking the groups through its own auto-configured registry and ZooKeeper session:
 * messages sent to both from several threads at once release every group exactly once,
 * complete.
 */
class AggregatorTests {

	private static final int GROUPS = 30;

	private static final int GROUP_SIZE = 4;

	private static final int THREADS = 8;

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private static final String DATABASE = "jdbc:h2:mem:aggregator;DB_CLOSE_DELAY=-1";

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withConfiguration(AutoConfigurations.of(IntegrationLockRegistryAutoConfiguration.class))
		.withUserConfiguration(AggregatorConfiguration.class);

	@BeforeAll
	static void createTheMessageStoreTables() {
		new ResourceDatabasePopulator(new ClassPathResource("org/springframework/integration/jdbc/schema-h2.sql"))
			.execute(AggregatorConfiguration.database());
	}

	@Test
	void everyGroupIsReleasedOnceAndCompleteWhileTwoApplicationsAggregateAtOnce() {
		this.contextRunner.run((first) -> this.contextRunner.run((second) -> {
			assertThat(first.getBean(LockRegistry.class)).isInstanceOf(ZooKeeperIntegrationLockRegistry.class)
				.isNotSameAs(second.getBean(LockRegistry.class));
			sendConcurrently(List.of(first.getBean("orders", MessageChannel.class),
					second.getBean("orders", MessageChannel.class)));
			List<Message<?>> released = new ArrayList<>(releasedBy(first));
			released.addAll(releasedBy(second));
			assertThat(released).extracting((message) -> message.getHeaders().get("correlationId"))
				.containsExactlyInAnyOrderElementsOf(
						IntStream.range(0, GROUPS).mapToObj((group) -> "order-" + group).toList());
			assertThat(released)
				.allSatisfy((message) -> assertThat(message.getPayload()).asInstanceOf(InstanceOfAssertFactories.LIST)
					.containsExactlyInAnyOrderElementsOf(IntStream.range(0, GROUP_SIZE).boxed().toList()));
		}));
	}

	private static void sendConcurrently(List<MessageChannel> applications) {
		List<Message<Integer>> messages = new ArrayList<>();
		for (int group = 0; group < GROUPS; group++) {
			for (int item = 0; item < GROUP_SIZE; item++) {
				messages.add(MessageBuilder.withPayload(item)
					.setCorrelationId("order-" + group)
					.setSequenceNumber(item + 1)
					.setSequenceSize(GROUP_SIZE)
					.build());
			}
		}
		Collections.shuffle(messages, new Random(42));
		CountDownLatch start = new CountDownLatch(1);
		ExecutorService executor = Executors.newFixedThreadPool(THREADS);
		try {
			List<CompletableFuture<Void>> senders = new ArrayList<>();
			for (int thread = 0; thread < THREADS; thread++) {
				MessageChannel application = applications.get(thread % applications.size());
				List<Message<Integer>> share = messages.subList(thread * messages.size() / THREADS,
						(thread + 1) * messages.size() / THREADS);
				senders.add(CompletableFuture.runAsync(() -> {
					awaitStart(start);
					share.forEach(application::send);
				}, executor));
			}
			start.countDown();
			assertThat(CompletableFuture.allOf(senders.toArray(CompletableFuture[]::new)))
				.succeedsWithin(Duration.ofSeconds(60));
		}
		finally {
			executor.shutdownNow();
		}
	}

	private static void awaitStart(CountDownLatch start) {
		try {
			start.await();
		}
		catch (InterruptedException ex) {
			Thread.currentThread().interrupt();
			throw new IllegalStateException(ex);
		}
	}

	private static List<Message<?>> releasedBy(AssertableApplicationContext application) {
		return application.getBean("released", QueueChannel.class).clear();
	}

	@Configuration(proxyBeanMethods = false)
	@EnableIntegration
	static class AggregatorConfiguration {

		static DataSource database() {
			return new SimpleDriverDataSource(new Driver(), DATABASE);
		}

		@Bean
		JdbcMessageStore orderGroups() {
			return new JdbcMessageStore(database());
		}

		@Bean
		QueueChannel released() {
			return new QueueChannel();
		}

		@Bean
		IntegrationFlow orderAggregation(LockRegistry<?> lockRegistry, JdbcMessageStore orderGroups,
				QueueChannel released) {
			return IntegrationFlow.from("orders")
				.aggregate((aggregator) -> aggregator.messageStore(orderGroups).lockRegistry(lockRegistry))
				.channel(released)
				.get();
		}

	}

}
