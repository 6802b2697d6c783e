package dev.zklock.health;

import java.time.Duration;
import java.util.Map;

import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.health.contributor.Health;
import org.springframework.boot.health.contributor.Status;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * {@link ZooKeeperHealthIndicator} against a real server that stops and comes back.
 */
class ZooKeeperHealthIndicatorTests {

	@RegisterExtension
	final ZooKeeperTestServer server = new ZooKeeperTestServer();

	@Test
	void isUpWhileConnectedDownWhileTheServerIsAwayAndUpAgainWhenItReturns() throws Exception {
		CuratorFramework client = this.server.newClient();
		ZooKeeperHealthIndicator indicator = new ZooKeeperHealthIndicator(client);
		Health up = indicator.health(true);
		assertThat(up.getStatus()).isEqualTo(Status.UP);
		String sessionId = "0x" + Long.toHexString(client.getZookeeperClient().getZooKeeper().getSessionId());
		assertThat(up.getDetails()).containsEntry("connectString", this.server.connectString())
			.containsEntry("state", "CONNECTED")
			.containsEntry("sessionId", sessionId);

		this.server.stop();
		// DOWN as soon as the client is disconnected; SUSPENDED once Curator announced it
		Health down = awaitState(indicator, "SUSPENDED");
		assertThat(down.getStatus()).isEqualTo(Status.DOWN);
		assertThat(down.getDetails()).containsEntry("connectString", this.server.connectString())
			.doesNotContainKey("sessionId");

		this.server.restart();
		Health back = awaitStatus(indicator, Status.UP);
		assertThat(back.getDetails()).containsEntry("state", "RECONNECTED").containsKey("sessionId");
	}

	@Test
	void isDownWithStateLostOnceTheSessionExpiresWhileTheServerIsAway() throws Exception {
		CuratorFramework client = this.server.newClient();
		ZooKeeperHealthIndicator indicator = new ZooKeeperHealthIndicator(client);
		this.server.stop();
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.untilAsserted(() -> assertThat(indicator.health(true).getDetails()).containsEntry("state", "LOST"));
		assertThat(indicator.health(true).getStatus()).isEqualTo(Status.DOWN);
	}

	@Test
	void isDownWhenTheClientIsClosed() throws Exception {
		CuratorFramework client = this.server.newClient();
		ZooKeeperHealthIndicator indicator = new ZooKeeperHealthIndicator(client);
		client.close();
		Health health = indicator.health(true);
		assertThat(health.getStatus()).isEqualTo(Status.DOWN);
		assertThat(health.getDetails()).containsEntry("state", "STOPPED");
	}

	@Test
	void isDownBeforeTheFirstConnection() {
		CuratorFramework client = CuratorFrameworkFactory.newClient("127.0.0.1:1", new RetryOneTime(10));
		try {
			client.start();
			Health health = new ZooKeeperHealthIndicator(client).health(true);
			assertThat(health.getStatus()).isEqualTo(Status.DOWN);
			assertThat(health.getDetails()).isEqualTo(Map.of("connectString", "127.0.0.1:1", "state", "NOT_CONNECTED"));
		}
		finally {
			client.close();
		}
	}

	private static Health awaitState(ZooKeeperHealthIndicator indicator, String state) {
		Health[] last = new Health[1];
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> state.equals((last[0] = indicator.health(true)).getDetails().get("state")));
		return last[0];
	}

	private static Health awaitStatus(ZooKeeperHealthIndicator indicator, Status status) {
		Health[] last = new Health[1];
		await().atMost(Duration.ofSeconds(20))
			.pollInterval(Duration.ofMillis(50))
			.until(() -> (last[0] = indicator.health(true)).getStatus().equals(status));
		return last[0];
	}

}
