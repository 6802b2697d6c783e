package dev.zklock.zookeeper;

import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * The background thread of a registry, a daemon: it enforces deadlines, runs delayed
 * releases and checks for a first connection, and once it is shut down the registry is
 * closed. It does not detect pauses: its tasks may hold it up, which must not look like a
 * pause of the process, so the {@link LockLossDetector} has a thread of its own for that.
 */
final class RegistryScheduler extends ScheduledThreadPoolExecutor {

	RegistryScheduler() {
		super(1, RegistryScheduler::newThread);
		setRemoveOnCancelPolicy(true);
	}

	private static Thread newThread(Runnable task) {
		Thread thread = new Thread(task, "zklock-registry");
		thread.setDaemon(true);
		return thread;
	}

}
