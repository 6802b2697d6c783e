package com.example.feeds;

import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.zookeeper.LeaderElection;
import dev.zklock.zookeeper.LeaderTerm;
import dev.zklock.zookeeper.LeadershipListener;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;

/**
 * The leader election of the guide's "Leader election" chapter, without Spring: the order
 * feed is consumed by one instance at a time, which writes with its term's fencing token.
 * {@code LeaderElectionTests} runs it.
 */
public class FeedLeadership implements AutoCloseable {

	private final List<String> log = new CopyOnWriteArrayList<>();

	private final LeaderElection election;

	private volatile LeaderTerm consuming;

	// tag::election[]
	public FeedLeadership(ZooKeeperLockRegistry registry) {
		this.election = new LeaderElection(registry, "order-feed", new LeadershipListener() {

			@Override
			public void granted(LeaderTerm term) {
				startConsuming(term); // hand the work to a thread of its own, and return
			}

			@Override
			public void revoked(LeaderTerm term, String reason) {
				stopConsuming(); // before the lock is released, when the leader yields or
									// closes
			}

		});
		this.election.start();
	}
	// end::election[]

	private void startConsuming(LeaderTerm term) {
		this.consuming = term;
		this.log.add("consuming with token " + term.fencingToken());
	}

	private void stopConsuming() {
		this.consuming = null;
		this.log.add("stopped");
	}

	public boolean isConsuming() {
		LeaderTerm term = this.consuming;
		return term != null && term.isValid();
	}

	public List<String> log() {
		return this.log;
	}

	// tag::yield[]
	public void handOver() {
		this.election.yieldLeadership(); // another candidate leads; this one queues again
	}
	// end::yield[]

	@Override
	public void close() {
		this.election.close();
	}

}
