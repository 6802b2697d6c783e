package dev.zklock.kotlin

import dev.zklock.LockTimeoutException
import dev.zklock.autoconfigure.DistributedLockAutoConfiguration
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration
import dev.zklock.testsupport.ZooKeeperTestServer
import dev.zklock.zookeeper.AcquiredLock
import dev.zklock.zookeeper.ZooKeeperLockRegistry
import java.time.Duration
import java.util.concurrent.CountDownLatch
import java.util.concurrent.TimeUnit
import org.apache.curator.framework.CuratorFramework
import org.apache.curator.framework.state.ConnectionState
import org.apache.curator.framework.state.ConnectionStateListener
import org.assertj.core.api.Assertions.assertThat
import org.springframework.boot.autoconfigure.AutoConfigurations
import org.springframework.boot.test.context.runner.ApplicationContextRunner

/**
 * Applications with the starter's auto-configuration, locking through the server at
 * [connectString]; they wait up to a minute for their first connection, so that a test's
 * first call finds the client connected on a busy machine too.
 */
fun lockApplications(connectString: String): ApplicationContextRunner = ApplicationContextRunner()
	.withConfiguration(AutoConfigurations.of(ZooKeeperAutoConfiguration::class.java,
			DistributedLockAutoConfiguration::class.java))
	.withPropertyValues("distributed-lock.zookeeper.connect-string=$connectString",
			"distributed-lock.startup.connection-wait=60s")

/** Applications that lock through [zookeeper]. */
fun lockApplications(zookeeper: ZooKeeperTestServer): ApplicationContextRunner =
	lockApplications(zookeeper.connectString())

/**
 * Another process's view of the application's keys: a registry of its own, in a session
 * of its own, under the starter's default root.
 */
class OtherProcess(zookeeper: ZooKeeperTestServer) {

	private val registry = ZooKeeperLockRegistry(zookeeper.newClient(), "/locks")

	/** Whether somebody else holds [key] now: this process cannot take it at once. */
	fun holds(key: String): Boolean = try {
		registry.acquire(key, Duration.ZERO).release()
		false
	}
	catch (ex: LockTimeoutException) {
		true
	}

	/** Takes [key], waiting for it as long as a busy machine may need. */
	fun acquire(key: String): AcquiredLock = registry.acquire(key, Duration.ofSeconds(30))

}

/**
 * Ends [client]'s ZooKeeper session and waits until its locks know: Curator tells its
 * listeners about one connection state after the other, so once this listener hears that
 * the client reconnected, the registry has heard that the session was lost.
 */
fun loseSession(client: CuratorFramework) {
	val reconnected = CountDownLatch(1)
	val listener = ConnectionStateListener { _, state ->
		if (state == ConnectionState.RECONNECTED) {
			reconnected.countDown()
		}
	}
	client.connectionStateListenable.addListener(listener)
	try {
		client.zookeeperClient.zooKeeper.testable.injectSessionExpiration()
		assertThat(reconnected.await(10, TimeUnit.SECONDS)).`as`("client reconnected in a new session").isTrue()
	}
	finally {
		client.connectionStateListenable.removeListener(listener)
	}
}
