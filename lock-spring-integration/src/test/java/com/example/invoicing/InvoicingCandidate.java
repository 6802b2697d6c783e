package com.example.invoicing;

import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.LockHandle;
import dev.zklock.integration.ZooKeeperIntegrationLockRegistry;
import org.jspecify.annotations.Nullable;

import org.springframework.integration.leader.AbstractCandidate;
import org.springframework.integration.leader.Context;
import org.springframework.stereotype.Component;

/**
 * The candidate for the {@code invoicing} role of the guide's "Spring Integration"
 * chapter: the leader keeps the handle of the role's lock, whose fencing token it writes
 * with and which tells any thread whether the leadership still holds.
 */
@Component
public class InvoicingCandidate extends AbstractCandidate {

	private final ZooKeeperIntegrationLockRegistry lockRegistry;

	private final AtomicReference<@Nullable LockHandle> leadership = new AtomicReference<>();

	public InvoicingCandidate(ZooKeeperIntegrationLockRegistry lockRegistry) {
		super(null, "invoicing");
		this.lockRegistry = lockRegistry;
	}

	// tag::granted[]
	@Override
	public void onGranted(Context context) {
		this.leadership.set(this.lockRegistry.obtain(getRole()).handle());
	}
	// end::granted[]

	@Override
	public void onRevoked(Context context) {
		this.leadership.set(null);
	}

	/**
	 * The lock of the leadership this candidate holds.
	 * @return its handle, or {@code null} while this candidate does not lead
	 */
	public @Nullable LockHandle leadership() {
		return this.leadership.get();
	}

}
