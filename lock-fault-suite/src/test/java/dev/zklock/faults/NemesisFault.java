package dev.zklock.faults;

import java.time.Duration;

/**
 * The faults the {@link Nemesis} mixes: every fault the suite knows, each with the range
 * its duration is drawn from. A fault that hits a worker hits one of the live ones; one
 * that hits ZooKeeper hits the ensemble or one of its servers.
 */
enum NemesisFault {

	/** {@code kill -9} of a worker, at once replaced by a new one. */
	KILL(0, 0),

	/** {@code SIGSTOP} of a worker, {@code SIGCONT} after the duration. */
	PAUSE(1000, 8000),

	/**
	 * The worker's session expired by its client; its holder goes on after the duration.
	 */
	SESSION_EXPIRY(500, 3000),

	/** The ensemble's leader killed, started again after the duration. */
	LEADER_KILL(500, 5000),

	/** Every server stopped, all started again after the duration. */
	ENSEMBLE_RESTART(1000, 8000),

	/** A worker cut off from every server for longer than its session timeout. */
	CUT_PAST_SESSION(sessionMillis() + 500, sessionMillis() + 4000),

	/** A worker cut off from every server for less than its session timeout. */
	CUT_WITHIN_SESSION(500, sessionMillis() - 500),

	/** A worker cut off only from the server its client talks to. */
	CUT_FROM_SERVER(1000, 8000),

	/** A server cut off from the other two, a minority partition. */
	ISOLATED_SERVER(1000, 8000),

	/** 200 ms to 2 s more per round trip on every link of a worker. */
	LATENCY(2000, 8000),

	/** Connections of every link of a worker reset at random, 1 to 5 % of the chunks. */
	PACKET_LOSS(2000, 8000),

	/**
	 * A worker cut off from every server as its holder releases, healed after the
	 * duration (counted from the cut).
	 */
	RELEASE_IN_FLIGHT(500, sessionMillis() + 2000);

	private final int minMillis;

	private final int maxMillis;

	NemesisFault(long minMillis, long maxMillis) {
		this.minMillis = (int) minMillis;
		this.maxMillis = (int) maxMillis;
	}

	private static long sessionMillis() {
		return FaultWorker.SESSION_TIMEOUT.toMillis();
	}

	/**
	 * The shortest duration of the fault.
	 * @return the duration
	 */
	Duration minDuration() {
		return Duration.ofMillis(this.minMillis);
	}

	/**
	 * The span of durations above the shortest.
	 * @return milliseconds, {@code 0} when the fault has no duration
	 */
	int durationSpanMillis() {
		return this.maxMillis - this.minMillis;
	}

	/**
	 * Whether the fault strikes a worker rather than ZooKeeper.
	 * @return whether it hits a worker
	 */
	boolean hitsWorker() {
		return this != LEADER_KILL && this != ENSEMBLE_RESTART && this != ISOLATED_SERVER;
	}

}
