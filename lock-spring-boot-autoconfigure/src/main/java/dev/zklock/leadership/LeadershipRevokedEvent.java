package dev.zklock.leadership;

import dev.zklock.zookeeper.LeaderTerm;

/**
 * This instance's term ended: it yielded, its initiator stopped, or its lock was doubted
 * or lost (see {@link dev.zklock.zookeeper.LeadershipListener#revoked}).
 */
public class LeadershipRevokedEvent extends LeadershipEvent {

	/**
	 * Why the term ended.
	 */
	private final String reason;

	/**
	 * Creates an event.
	 * @param source the initiator that publishes it
	 * @param term the term revoked
	 * @param reason why it ended
	 */
	public LeadershipRevokedEvent(LeadershipInitiator source, LeaderTerm term, String reason) {
		super(source, term);
		this.reason = reason;
	}

	/**
	 * Why the term ended.
	 * @return the reason
	 */
	public String getReason() {
		return this.reason;
	}

	@Override
	public String toString() {
		return "LeadershipRevokedEvent[" + getTerm() + ", reason=" + this.reason + "]";
	}

}
