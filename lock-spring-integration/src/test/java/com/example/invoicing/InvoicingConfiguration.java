package com.example.invoicing;

import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;
import org.springframework.integration.dsl.IntegrationFlow;
import org.springframework.integration.leader.Candidate;
import org.springframework.integration.store.MessageGroupStore;
import org.springframework.integration.support.leader.LockRegistryLeaderInitiator;
import org.springframework.integration.support.locks.LockRegistry;

/**
 * The components of the guide's "Spring Integration" chapter, handed the auto-configured
 * registry as they would be handed any other: a leader initiator for the
 * {@code invoicing} role and an aggregator of orders.
 * {@code GuideIntegrationSamplesTests} runs it.
 */
@Configuration(proxyBeanMethods = false)
public class InvoicingConfiguration {

	// tag::components[]
	@Bean
	LockRegistryLeaderInitiator leaderInitiator(LockRegistry<?> lockRegistry, Candidate invoicingCandidate) {
		return new LockRegistryLeaderInitiator(lockRegistry, invoicingCandidate);
	}

	@Bean
	IntegrationFlow orderAggregation(LockRegistry<?> lockRegistry, MessageGroupStore orderGroups) {
		return IntegrationFlow.from("orders")
			.aggregate((aggregator) -> aggregator.messageStore(orderGroups).lockRegistry(lockRegistry))
			.channel("completedOrders")
			.get();
	}
	// end::components[]

}
