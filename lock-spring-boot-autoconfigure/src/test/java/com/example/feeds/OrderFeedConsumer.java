package com.example.feeds;

import dev.zklock.leadership.LeaderOnly;
import dev.zklock.leadership.LeadershipInitiator;
import dev.zklock.zookeeper.LeaderTerm;

import org.springframework.context.SmartLifecycle;
import org.springframework.stereotype.Component;

/**
 * The leader-only bean of the guide's "Leader election" chapter: it consumes the order
 * feed only on the instance that leads. {@code LeadershipGuideSamplesTests} runs it.
 */
// tag::role[]
@Component
@LeaderOnly
public class OrderFeedConsumer implements SmartLifecycle {

	private final LeadershipInitiator leadership;

	private volatile LeaderTerm term;

	public OrderFeedConsumer(LeadershipInitiator leadership) {
		this.leadership = leadership;
	}

	@Override
	public boolean isAutoStartup() {
		return false; // started when this instance leads, not with the application
	}

	@Override
	public void start() {
		this.term = this.leadership.currentTerm(); // its token fences this term's writes
	}

	@Override
	public void stop() {
		this.term = null;
	}

	@Override
	public boolean isRunning() {
		return this.term != null;
	}
	// end::role[]

	public LeaderTerm term() {
		return this.term;
	}

}
