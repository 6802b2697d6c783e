package dev.zklock.zookeeper;

import java.util.concurrent.ScheduledThreadPoolExecutor;

/**
 * The background thread of a registry, a daemon: it detects pauses, enforces deadlines
 * and runs delayed releases, and once it is shut down the registry is closed.
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
