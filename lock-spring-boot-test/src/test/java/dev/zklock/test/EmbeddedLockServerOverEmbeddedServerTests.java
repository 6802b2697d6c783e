package dev.zklock.test;

import dev.zklock.LockTimeoutException;
import dev.zklock.test.shop.OrderService;
import dev.zklock.test.shop.ShopApplication;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import org.springframework.beans.factory.annotation.Autowired;
import org.springframework.beans.factory.annotation.Value;
import org.springframework.boot.test.context.SpringBootTest;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * An application whose configuration turns the embedded ZooKeeper server on, as Getting
 * started recommends for development, locks on the server of {@link EmbeddedLockServer}
 * in its tests: a key held by {@link OtherProcess} is held for the application too.
 */
@SpringBootTest(classes = ShopApplication.class,
		properties = { "distributed-lock.zookeeper.embedded.enabled=true",
				"distributed-lock.zookeeper.embedded.port=0" })
@EmbeddedLockServer
class EmbeddedLockServerOverEmbeddedServerTests {

	@Autowired
	private OrderService orders;

	@Autowired
	private OtherProcess otherProcess;

	@Autowired
	private CuratorFramework client;

	@Value("${distributed-lock.zookeeper.connect-string}")
	private String connectString;

	@Test
	void applicationLocksOnTheTestsServerNotOnItsOwnEmbeddedOne() {
		assertThat(this.client.getZookeeperClient().getCurrentConnectionString()).isEqualTo(this.connectString);
		try (HeldKey held = this.otherProcess.hold("order:7")) {
			assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> this.orders.pay("7"));
		}
		assertThat(this.orders.pay("7")).isPositive();
	}

}
