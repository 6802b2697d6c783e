package dev.zklock.leadership;

import dev.zklock.zookeeper.LeaderTerm;

/**
 * This instance leads the election, for the term the event carries, until a
 * {@link LeadershipRevokedEvent} of that term.
 */
public class LeadershipGrantedEvent extends LeadershipEvent {

	/**
	 * Creates an event.
	 * @param source the initiator that publishes it
	 * @param term the term granted
	 */
	public LeadershipGrantedEvent(LeadershipInitiator source, LeaderTerm term) {
		super(source, term);
	}

	@Override
	public String toString() {
		return "LeadershipGrantedEvent[" + getTerm() + "]";
	}

}
