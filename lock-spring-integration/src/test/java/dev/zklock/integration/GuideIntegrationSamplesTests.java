package dev.zklock.integration;

import java.time.Duration;
import java.util.List;

import com.example.invoicing.InvoicingCandidate;
import com.example.invoicing.InvoicingConfiguration;
import dev.zklock.LockHandle;
import dev.zklock.integration.autoconfigure.IntegrationLockRegistryAutoConfiguration;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.integration.channel.QueueChannel;
import org.springframework.integration.config.EnableIntegration;
import org.springframework.integration.store.SimpleMessageStore;
import org.springframework.integration.support.MessageBuilder;
import org.springframework.messaging.Message;
import org.springframework.messaging.MessageChannel;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The components of the guide's "Spring Integration" chapter, which includes tagged
 * regions of {@link InvoicingConfiguration} and {@link InvoicingCandidate}, work on the
 * auto-configured registry as the chapter says: the candidate leads with the role's lock,
 * and the aggregator releases a complete group.
 */
class GuideIntegrationSamplesTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@Test
	void candidateLeadsWithTheRolesLockAndTheAggregatorReleasesCompleteGroups() {
		LockApplications.connectedTo(zookeeper)
			.withConfiguration(AutoConfigurations.of(IntegrationLockRegistryAutoConfiguration.class))
			.withUserConfiguration(IntegrationConfiguration.class, InvoicingConfiguration.class,
					InvoicingCandidate.class)
			.withBean("completedOrders", QueueChannel.class, QueueChannel::new)
			.withBean("orderGroups", SimpleMessageStore.class, SimpleMessageStore::new)
			.run((context) -> {
				InvoicingCandidate candidate = context.getBean(InvoicingCandidate.class);
				LockHandle leadership = await().atMost(Duration.ofSeconds(30))
					.until(candidate::leadership, (handle) -> handle != null);
				assertThat(leadership.key()).isEqualTo("invoicing");
				assertThat(leadership.isValid()).isTrue();
				assertThat(leadership.fencingToken()).isPositive();
				MessageChannel orders = context.getBean("orders", MessageChannel.class);
				for (int item = 1; item <= 2; item++) {
					orders.send(MessageBuilder.withPayload(item)
						.setCorrelationId("order-7")
						.setSequenceNumber(item)
						.setSequenceSize(2)
						.build());
				}
				Message<?> completed = context.getBean("completedOrders", QueueChannel.class)
					.receive(Duration.ofSeconds(30).toMillis());
				assertThat(completed).isNotNull();
				assertThat(completed.getPayload()).isEqualTo(List.of(1, 2));
			});
	}

	@EnableIntegration
	static class IntegrationConfiguration {

	}

}
