package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockAcquisitionException;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.ExponentialBackoffRetry;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * ZooKeeper going away in the middle of an acquisition or before a release, with a client
 * configured like the starter's default one: Curator alone would keep retrying for close
 * to a minute.
 */
@ExtendWith(OutputCaptureExtension.class)
class ZooKeeperOutageTests {

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final List<CuratorFramework> patientClients = new ArrayList<>();

	@AfterEach
	void closeClients() {
		this.patientClients.forEach(CuratorFramework::close);
	}

	@Test
	void acquisitionThatLosesZooKeeperWhileWaitingEndsAtItsDeadline() throws Exception {
		CuratorFramework holderClient = this.zookeeper.newClient();
		ZooKeeperLockRegistry holder = new ZooKeeperLockRegistry(holderClient, "/locks");
		ZooKeeperLockRegistry waiter = new ZooKeeperLockRegistry(patientClient(), "/locks");
		holder.acquire("contended", Duration.ofSeconds(5));
		CompletableFuture<Void> outage = CompletableFuture.runAsync(() -> {
			await().until(() -> holderClient.getChildren().forPath(holder.pathOf("contended")).size() == 2);
			stopServer();
		});
		Duration waitTime = Duration.ofSeconds(2);
		long start = System.nanoTime();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> waiter.acquire("contended", waitTime))
			.withMessageContaining("'contended'")
			.withMessageContaining("2000ms");
		// a margin for a busy machine that stays below the patient client's connection
		// timeout of 15 s, which Curator alone would wait for, and more
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(waitTime.plusSeconds(10));
		assertThat(outage).as("the server stopped once the waiter queued").succeedsWithin(Duration.ofSeconds(10));
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		assertThat(waiter.keysInUse()).isZero();
	}

	@Test
	void releaseWithoutZooKeeperReturnsAndTheNodeIsDeletedWhenZooKeeperReturns(CapturedOutput output) throws Exception {
		CuratorFramework client = patientClient();
		ZooKeeperLockRegistry holder = new ZooKeeperLockRegistry(client, "/locks");
		AcquiredLock lock = holder.acquire("orphan", Duration.ofSeconds(5));
		this.zookeeper.stop();
		await().atMost(Duration.ofSeconds(10)).until(() -> !client.getZookeeperClient().isConnected());
		lock.release();
		assertThat(lock.isValid()).isFalse();
		assertThat(holder.keysInUse()).isZero();
		assertThat(Thread.currentThread().isInterrupted()).isFalse();
		this.zookeeper.restart();
		ZooKeeperLockRegistry other = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		await().atMost(Duration.ofSeconds(20))
			.ignoreExceptions()
			.untilAsserted(() -> other.acquire("orphan", Duration.ZERO).release());
		assertThat(client.getZookeeperClient().getZooKeeper().getSessionId()).isNotZero();
		assertThat(output).doesNotContain("Exception").doesNotContain("Could not delete");
	}

	@Test
	void anOutageIsOneLineOfTheRegistryAndItsEndAnother(CapturedOutput output) throws Exception {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(patientClient(), "/locks");
		this.zookeeper.stop();
		await().atMost(Duration.ofSeconds(20)).until(() -> output.toString().contains(") is suspended"));
		this.zookeeper.restart();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> output.toString()
				.substring(output.toString().indexOf(") is suspended"))
				.contains(") again; locking works again"));
		assertThat(output.toString()
			.split("\\) is suspended; locks cannot be taken until it is back, and held " + "locks are lost", -1))
			.as("lines announcing the outage and what it means for held locks under the default policy")
			.hasSize(2);
		assertThat(output.toString().split("\\) again; locking works again", -1))
			.as("lines announcing its end, after the outage only")
			.hasSize(2);
		registry.acquire("after-outage", Duration.ofSeconds(10)).release();
		registry.close();
	}

	/**
	 * A registry of several sessions reports an outage once per session, each line naming
	 * its session, so that operators can tell which keys' locks it concerns.
	 */
	@Test
	void anOutageIsOneLineOfEachSessionNamingIt(CapturedOutput output) throws Exception {
		ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(List.of(patientClient(), patientClient()), "/locks",
				LostLockPolicy.defaults(), HandOffPolicy.defaults());
		this.zookeeper.stop();
		await().atMost(Duration.ofSeconds(20)).until(() -> output.toString().split("\\) is suspended", -1).length == 3);
		this.zookeeper.restart();
		await().atMost(Duration.ofSeconds(30))
			.until(() -> output.toString().split("\\) again; locking works again", -1).length == 3);
		for (String session : List.of("Lock session 1 of 2: ", "Lock session 2 of 2: ")) {
			assertThat(output.toString().split(session + "The connection to ZooKeeper \\(", -1)).as(session + "outage")
				.hasSize(2);
			assertThat(output.toString().split(session + "Connected to ZooKeeper \\(", -1)).as(session + "its end")
				.hasSize(2);
		}
		registry.acquire("after-outage", Duration.ofSeconds(10)).release();
		registry.close();
	}

	private CuratorFramework patientClient() throws InterruptedException {
		CuratorFramework client = CuratorFrameworkFactory.builder()
			.connectString(this.zookeeper.connectString())
			.sessionTimeoutMs(60_000)
			.connectionTimeoutMs(15_000)
			.retryPolicy(new ExponentialBackoffRetry(50, 10, 500))
			.build();
		this.patientClients.add(client);
		client.start();
		assertThat(client.blockUntilConnected(60, TimeUnit.SECONDS)).as("connected").isTrue();
		return client;
	}

	private void stopServer() {
		try {
			this.zookeeper.stop();
		}
		catch (Exception ex) {
			throw new IllegalStateException(ex);
		}
	}

}
