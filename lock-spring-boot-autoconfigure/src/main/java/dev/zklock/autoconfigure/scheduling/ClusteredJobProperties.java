package dev.zklock.autoconfigure.scheduling;

import java.time.Duration;

import dev.zklock.MissedRuns;

import org.springframework.boot.context.properties.ConfigurationProperties;

/**
 * Configuration properties of the {@link dev.zklock.ClusteredJob}s.
 */
@ConfigurationProperties("distributed-lock.scheduling")
public class ClusteredJobProperties {

	/**
	 * ZooKeeper path under which the records of the clustered jobs are kept, one child
	 * per job; apart from the lock root path.
	 */
	private String rootPath = "/scheduled-jobs";

	/**
	 * What a clustered job whose annotation does not say does about the scheduled times
	 * that passed while no instance ran it: 'skip' them, or 'run-once' at start-up.
	 */
	private MissedRuns missedRuns = MissedRuns.SKIP;

	/**
	 * Longest time a firing waits for its job's lock while another run holds it (at most
	 * until the job's next scheduled time); the scheduler's thread waits meanwhile.
	 */
	private Duration lockWait = Duration.ofSeconds(1);

	/**
	 * The ZooKeeper path under which the job records are kept
	 * ({@code distributed-lock.scheduling.root-path}).
	 * @return the root path
	 */
	public String getRootPath() {
		return this.rootPath;
	}

	/**
	 * Sets the ZooKeeper path under which the job records are kept
	 * ({@code distributed-lock.scheduling.root-path}).
	 * @param rootPath the root path
	 */
	public void setRootPath(String rootPath) {
		this.rootPath = rootPath;
	}

	/**
	 * What a job does about missed runs unless its annotation says
	 * ({@code distributed-lock.scheduling.missed-runs}).
	 * @return the missed runs policy
	 */
	public MissedRuns getMissedRuns() {
		return this.missedRuns;
	}

	/**
	 * Sets what a job does about missed runs unless its annotation says
	 * ({@code distributed-lock.scheduling.missed-runs}).
	 * @param missedRuns the missed runs policy
	 */
	public void setMissedRuns(MissedRuns missedRuns) {
		this.missedRuns = missedRuns;
	}

	/**
	 * The longest a firing waits for its job's lock
	 * ({@code distributed-lock.scheduling.lock-wait}).
	 * @return the lock wait
	 */
	public Duration getLockWait() {
		return this.lockWait;
	}

	/**
	 * Sets the longest a firing waits for its job's lock
	 * ({@code distributed-lock.scheduling.lock-wait}).
	 * @param lockWait the lock wait
	 */
	public void setLockWait(Duration lockWait) {
		this.lockWait = lockWait;
	}

}
