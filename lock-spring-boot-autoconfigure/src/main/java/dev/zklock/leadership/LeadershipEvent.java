package dev.zklock.leadership;

import dev.zklock.zookeeper.LeaderTerm;

import org.springframework.context.ApplicationEvent;

/**
 * An event of this instance's leadership: a term granted or revoked, published by a
 * {@link LeadershipInitiator} on its election's thread.
 */
public abstract class LeadershipEvent extends ApplicationEvent {

	/**
	 * The term granted or revoked.
	 */
	private final LeaderTerm term;

	/**
	 * Creates an event.
	 * @param source the initiator that publishes it
	 * @param term the term it is about
	 */
	protected LeadershipEvent(LeadershipInitiator source, LeaderTerm term) {
		super(source);
		this.term = term;
	}

	/**
	 * The term granted or revoked.
	 * @return the term, with its fencing token
	 */
	public LeaderTerm getTerm() {
		return this.term;
	}

	/**
	 * The name of the election.
	 * @return the election's name
	 */
	public String getElection() {
		return this.term.key();
	}

	@Override
	public LeadershipInitiator getSource() {
		return (LeadershipInitiator) super.getSource();
	}

}
