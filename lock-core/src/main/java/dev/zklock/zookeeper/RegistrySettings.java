package dev.zklock.zookeeper;

import org.apache.curator.framework.CuratorFramework;

/**
 * The settings that a registry is created with, checked in the order of its constructor's
 * parameters.
 *
 * @param client the Curator client
 * @param rootPath the ZooKeeper path under which the lock nodes live, valid
 * @param lostLockPolicy what counts as losing a held lock, and what happens to its holder
 * then
 * @param handOffPolicy whether and how long a released lock passes to the threads of this
 * process that wait for it
 */
record RegistrySettings(CuratorFramework client, String rootPath, LostLockPolicy lostLockPolicy,
		HandOffPolicy handOffPolicy) {

	/**
	 * Checks the settings.
	 * @throws IllegalArgumentException if the client or a policy is {@code null}, or the
	 * root path is not a valid one
	 */
	RegistrySettings {
		if (client == null) {
			throw new IllegalArgumentException("'client' must not be null");
		}
		if (lostLockPolicy == null) {
			throw new IllegalArgumentException("'lostLockPolicy' must not be null");
		}
		if (handOffPolicy == null) {
			throw new IllegalArgumentException("'handOffPolicy' must not be null");
		}
		rootPath = LockRoot.validPath(rootPath);
	}

}
