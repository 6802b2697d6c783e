package dev.zklock.testsupport;

import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;

/**
 * Application contexts with the starter's auto-configuration, connected to a test server
 * before they count as started.
 */
public final class LockApplications {

	/**
	 * How long an application waits for its first connection at start-up: a test's first
	 * call, even one that tries once, then finds the client connected on a busy machine
	 * too.
	 */
	public static final String CONNECTION_WAIT = "60s";

	private LockApplications() {
	}

	/**
	 * A runner of applications that lock through the server.
	 * @param zookeeper the server
	 * @return the runner
	 */
	public static ApplicationContextRunner connectedTo(ZooKeeperTestServer zookeeper) {
		return new ApplicationContextRunner()
			.withConfiguration(
					AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
			.withPropertyValues("distributed-lock.zookeeper.connect-string=" + zookeeper.connectString(),
					"distributed-lock.startup.connection-wait=" + CONNECTION_WAIT);
	}

}
