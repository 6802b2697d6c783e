package dev.zklock.zookeeper;

import java.nio.charset.StandardCharsets;
import java.time.Duration;

import dev.zklock.LockTimeoutException;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Who holds a lock, as its node tells operators and timed-out contenders.
 */
class HolderIdentityTests {

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@Test
	void lockNodeNamesItsApplicationHostProcessAndThread() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/locks");
		registry.setApplicationName("billing");
		AcquiredLock lock = registry.acquire("invoice:7", Duration.ofSeconds(10));
		try {
			String node = client.getChildren().forPath(registry.pathOf("invoice:7")).get(0);
			String data = new String(client.getData().forPath(registry.pathOf("invoice:7") + "/" + node),
					StandardCharsets.UTF_8);
			assertThat(data).isEqualTo("application=billing\nhost=" + HolderIdentity.current(null, false).host()
					+ "\npid=" + ProcessHandle.current().pid() + "\nthread=" + Thread.currentThread().getName() + "\n");
		}
		finally {
			lock.release();
		}
	}

	@Test
	void timeoutNamesTheCurrentHolder() throws Exception {
		ZooKeeperLockRegistry holder = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		holder.setApplicationName("billing");
		ZooKeeperLockRegistry waiter = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		AcquiredLock held = holder.acquire("invoice:8", Duration.ofSeconds(10));
		try {
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> waiter.acquire("invoice:8", Duration.ofMillis(100)))
				.withMessageContaining("another holder kept it (application 'billing', host ")
				.withMessageContaining("pid " + ProcessHandle.current().pid())
				.withMessageContaining("thread '" + Thread.currentThread().getName() + "')")
				.satisfies((ex) -> assertThat(ex.getHolder()).startsWith("application 'billing'"));
		}
		finally {
			held.release();
		}
	}

	@Test
	void holderRoundTripsThroughNodeDataAndStaysSmall() {
		HolderIdentity holder = new HolderIdentity("orders", "web-1", 42, "exec\nwith a newline " + "x".repeat(500));
		HolderIdentity read = HolderIdentity.fromBytes(holder.toBytes());
		assertThat(read.application()).isEqualTo("orders");
		assertThat(read.host()).isEqualTo("web-1");
		assertThat(read.pid()).isEqualTo(42);
		assertThat(read.thread()).startsWith("exec with a newline ").hasSize(HolderIdentity.MAX_VALUE_LENGTH);
		assertThat(HolderIdentity.fromBytes(new HolderIdentity(null, "h", 1, null).toBytes()))
			.hasToString("host h, pid 1");
	}

	@Test
	void dataOfOtherClientsNamesNoHolder() {
		assertThat(HolderIdentity.fromBytes(null)).isNull();
		assertThat(HolderIdentity.fromBytes("127.0.0.1".getBytes(StandardCharsets.UTF_8))).isNull();
		assertThat(HolderIdentity.fromBytes("host=h\npid=x\n".getBytes(StandardCharsets.UTF_8))).isNull();
	}

}
