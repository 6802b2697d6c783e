package com.example.feeds;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.leadership.LeadershipGrantedEvent;
import dev.zklock.leadership.LeadershipRevokedEvent;

import org.springframework.context.event.EventListener;
import org.springframework.stereotype.Component;

/**
 * The leadership events of the guide's "Leader election" chapter.
 * {@code LeadershipGuideSamplesTests} runs it.
 */
@Component
public class LeadershipAudit {

	private final List<String> entries = new CopyOnWriteArrayList<>();

	// tag::events[]
	@EventListener
	public void granted(LeadershipGrantedEvent event) {
		record("leading " + event.getElection() + " with token " + event.getTerm().fencingToken());
	}

	@EventListener
	public void revoked(LeadershipRevokedEvent event) {
		record("no longer leading " + event.getElection() + ": " + event.getReason());
	}
	// end::events[]

	private void record(String entry) {
		this.entries.add(entry);
	}

	public List<String> entries() {
		return this.entries;
	}

}
