package dev.zklock.integration.leader;

import java.util.function.Consumer;

import dev.zklock.integration.ZooKeeperIntegrationLockRegistry;

import org.springframework.integration.leader.AbstractCandidate;
import org.springframework.integration.leader.Context;

/**
 * A candidate for leadership that reports its leadership as lines: {@code GRANTED} and
 * the leader's fencing token when it becomes leader, {@code REVOKED} when it stops being
 * leader.
 */
final class ReportingCandidate extends AbstractCandidate {

	private final ZooKeeperIntegrationLockRegistry registry;

	private final Consumer<String> report;

	/**
	 * Creates a candidate.
	 * @param registry the registry whose lock of the role the leader holds
	 * @param role the role, which is the lock's key
	 * @param report where the lines go
	 */
	ReportingCandidate(ZooKeeperIntegrationLockRegistry registry, String role, Consumer<String> report) {
		super(null, role);
		this.registry = registry;
		this.report = report;
	}

	/**
	 * The leadership's fencing token, read on the thread that holds the role's lock.
	 * @param line a line reported on being granted leadership
	 * @return the token it carries
	 */
	static long tokenOf(String line) {
		return Long.parseLong(line.substring("GRANTED ".length()));
	}

	@Override
	public void onGranted(Context context) {
		this.report.accept("GRANTED " + this.registry.obtain(getRole()).handle().fencingToken());
	}

	@Override
	public void onRevoked(Context context) {
		this.report.accept("REVOKED");
	}

}
