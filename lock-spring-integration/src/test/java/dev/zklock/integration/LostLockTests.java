package dev.zklock.integration;

import java.time.Duration;

import dev.zklock.LockHandle;
import dev.zklock.LockLostException;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.ZooKeeperLock;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A holder learns that its lock was lost while it held it: its connection to ZooKeeper
 * was suspended, so ZooKeeper may have given the lock to another process.
 */
class LostLockTests {

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private ZooKeeperLockRegistry zklock;

	private ZooKeeperIntegrationLockRegistry registry;

	@BeforeEach
	void connect() throws Exception {
		this.zklock = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		this.registry = new ZooKeeperIntegrationLockRegistry(this.zklock);
	}

	@AfterEach
	void close() {
		this.zklock.close();
	}

	@Test
	void executeLockedEndsWithLockLostExceptionAfterWorkWhoseLockWasLost() throws Exception {
		assertThatExceptionOfType(LockLostException.class).isThrownBy(() -> this.registry.executeLocked("lost", () -> {
			LockHandle lock = LockHandle.current();
			this.zookeeper.stop();
			await().until(() -> !lock.isValid());
		})).satisfies((ex) -> assertThat(ex.getKey()).isEqualTo("lost"));
	}

	@Test
	void theHandleOfALockedViewTurnsInvalidWhenTheLockIsLost() throws Exception {
		ZooKeeperLock lock = this.registry.obtain("lost");
		lock.lock();
		try {
			LockHandle handle = lock.handle();
			assertThat(handle.isValid()).isTrue();
			this.zookeeper.stop();
			await().atMost(Duration.ofSeconds(15)).until(() -> !handle.isValid());
		}
		finally {
			lock.unlock();
		}
	}

}
