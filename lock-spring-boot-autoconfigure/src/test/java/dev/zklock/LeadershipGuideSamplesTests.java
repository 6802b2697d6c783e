package dev.zklock;

import java.io.IOException;
import java.time.Duration;

import com.example.feeds.LeadershipAudit;
import com.example.feeds.OrderFeedConsumer;
import dev.zklock.autoconfigure.leadership.LeadershipAutoConfiguration;
import dev.zklock.leadership.LeadershipInitiator;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.env.YamlPropertySourceLoader;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.core.io.ClassPathResource;
import org.springframework.core.env.PropertySource;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * The samples of the guide's "Leader election" chapter, in two instances configured by
 * its YAML: the order feed is consumed by the leader only, and the audit hears each term.
 */
class LeadershipGuideSamplesTests {

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	@Test
	void theOrderFeedIsConsumedByTheLeaderOnlyAndPassesOnWhenItStops() throws IOException {
		PropertySource<?> yaml = new YamlPropertySourceLoader()
			.load("leadership", new ClassPathResource("samples/leadership.yml"))
			.get(0);
		ApplicationContextRunner instances = LockApplications.connectedTo(zookeeper)
			.withConfiguration(AutoConfigurations.of(LeadershipAutoConfiguration.class))
			.withPropertyValues(
					"distributed-lock.leadership.name=" + yaml.getProperty("distributed-lock.leadership.name"))
			.withUserConfiguration(OrderFeedConsumer.class, LeadershipAudit.class);
		instances.run((first) -> {
			await().atMost(Duration.ofSeconds(30)).until(() -> first.getBean(OrderFeedConsumer.class).isRunning());
			long firstToken = first.getBean(OrderFeedConsumer.class).term().fencingToken();
			instances.run((second) -> {
				assertThat(second.getBean(OrderFeedConsumer.class).isRunning()).isFalse();
				first.getBean(LeadershipInitiator.class).stop();
				await().atMost(Duration.ofSeconds(30)).until(() -> second.getBean(OrderFeedConsumer.class).isRunning());
				assertThat(second.getBean(OrderFeedConsumer.class).term().fencingToken()).isGreaterThan(firstToken);
				assertThat(first.getBean(OrderFeedConsumer.class).isRunning()).isFalse();
				assertThat(first.getBean(LeadershipAudit.class).entries()).containsExactly(
						"leading order-feed with token " + firstToken,
						"no longer leading order-feed: the election was closed");
			});
		});
	}

}
