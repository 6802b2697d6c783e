package dev.zklock.autoconfigure.leadership;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;

import dev.zklock.actuate.LocksEndpoint;
import dev.zklock.leadership.LeaderOnly;
import dev.zklock.leadership.LeaderRoleController;
import dev.zklock.leadership.LeadershipEvent;
import dev.zklock.leadership.LeadershipGrantedEvent;
import dev.zklock.leadership.LeadershipInitiator;
import dev.zklock.leadership.LeadershipRevokedEvent;
import dev.zklock.testsupport.LockApplications;
import dev.zklock.testsupport.ZooKeeperTestServer;
import dev.zklock.zookeeper.LeaderTerm;
import dev.zklock.zookeeper.ZooKeeperLockRegistry;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.beans.factory.BeanCreationException;
import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.context.properties.source.InvalidConfigurationPropertyValueException;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.context.ApplicationEventPublisher;
import org.springframework.context.ApplicationListener;
import org.springframework.context.SmartLifecycle;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.awaitility.Awaitility.await;

/**
 * The application's leader election, configured by properties, in application contexts
 * sharing a real ZooKeeper server: one instance leads at a time, its
 * {@link LeaderOnly @LeaderOnly} beans run only while it leads, and its terms are
 * published as events.
 */
class LeadershipAutoConfigurationTests {

	private static final Duration AWAIT = Duration.ofSeconds(30);

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = LockApplications.connectedTo(zookeeper)
		.withConfiguration(AutoConfigurations.of(LeadershipAutoConfiguration.class));

	@Test
	void configuresNoElectionWithoutAName() {
		this.contextRunner.run((context) -> assertThat(context).hasNotFailed()
			.doesNotHaveBean(LeadershipInitiator.class)
			.doesNotHaveBean(LeaderRoleController.class));
	}

	@Test
	void oneInstanceLeadsAndRunsItsLeaderOnlyBeansUntilItStops() {
		ApplicationContextRunner instances = this.contextRunner.withUserConfiguration(ConsumerConfiguration.class)
			.withPropertyValues("distributed-lock.leadership.name=orders-consumer");
		instances.run((first) -> {
			LeaderTerm firstTerm = awaitGranted(first);
			assertThat(first.getBean(OrdersConsumer.class).isRunning()).isTrue();
			assertThat(first.getBean(LeadershipInitiator.class).isLeader()).isTrue();
			assertThat(new LocksEndpoint(first.getBean(ZooKeeperLockRegistry.class)).key("orders-consumer").queue())
				.first()
				.satisfies((head) -> assertThat(head.holding()).isTrue())
				.satisfies((head) -> assertThat(head.fencingToken()).isEqualTo(firstTerm.fencingToken()));
			instances.run((second) -> {
				await().atMost(AWAIT)
					.until(() -> second.getBean(ZooKeeperLockRegistry.class).queueOf("orders-consumer").size() == 2);
				assertThat(second.getBean(OrdersConsumer.class).isRunning()).as("consumer of the follower").isFalse();
				assertThat(events(second)).isEmpty();
				first.getBean(LeadershipInitiator.class).stop();
				assertThat(events(first)).last()
					.isInstanceOfSatisfying(LeadershipRevokedEvent.class,
							(revoked) -> assertThat(revoked.getReason()).contains("closed"));
				assertThat(first.getBean(OrdersConsumer.class).isRunning()).as("consumer of the former leader")
					.isFalse();
				LeaderTerm secondTerm = awaitGranted(second);
				assertThat(secondTerm.fencingToken()).isGreaterThan(firstTerm.fencingToken());
				assertThat(second.getBean(OrdersConsumer.class).isRunning()).isTrue();
				assertThat(first.getBean(OrdersConsumer.class).stoppedWhileLeading())
					.as("consumer stopped before the election's lock was released")
					.isTrue();
			});
		});
	}

	@Test
	void aYieldingInstanceStopsItsLeaderOnlyBeansAndLeadsAgainAlone() {
		this.contextRunner.withUserConfiguration(ConsumerConfiguration.class)
			.withPropertyValues("distributed-lock.leadership.name=warmer")
			.run((context) -> {
				LeaderTerm first = awaitGranted(context);
				assertThat(context.getBean(LeadershipInitiator.class).yieldLeadership()).isTrue();
				await().atMost(AWAIT).until(() -> events(context).size() == 3);
				assertThat(events(context)).satisfiesExactly(
						(granted) -> assertThat(granted).isInstanceOf(LeadershipGrantedEvent.class),
						(revoked) -> assertThat(revoked).isInstanceOfSatisfying(LeadershipRevokedEvent.class,
								(event) -> assertThat(event.getReason()).contains("yielded")),
						(granted) -> assertThat(granted.getTerm().fencingToken()).isGreaterThan(first.fencingToken()));
				assertThat(context.getBean(OrdersConsumer.class).starts()).isEqualTo(2);
				assertThat(context.getBean(OrdersConsumer.class).isRunning()).isTrue();
			});
	}

	@Test
	void anExplicitContextStartLeavesTheLeaderOnlyBeansRunningOnlyOnTheLeader() {
		ApplicationContextRunner instances = this.contextRunner.withUserConfiguration(ConsumerConfiguration.class)
			.withPropertyValues("distributed-lock.leadership.name=explicit-start");
		instances.run((leader) -> {
			awaitGranted(leader);
			instances.run((follower) -> {
				await().atMost(AWAIT)
					.until(() -> follower.getBean(ZooKeeperLockRegistry.class).queueOf("explicit-start").size() == 2);
				follower.start();
				OrdersConsumer followers = follower.getBean(OrdersConsumer.class);
				assertThat(followers.starts()).as("starts of the follower's consumer by Spring").isEqualTo(1);
				assertThat(followers.isRunning()).as("consumer of the follower once start() returned").isFalse();
				leader.start();
				assertThat(leader.getBean(OrdersConsumer.class).isRunning()).as("consumer of the leader").isTrue();
				assertThat(leader.getBean(OrdersConsumer.class).starts()).isEqualTo(1);
			});
		});
	}

	@Test
	void doesNotJoinWhenAutoStartupIsOff() {
		this.contextRunner.withUserConfiguration(ConsumerConfiguration.class)
			.withPropertyValues("distributed-lock.leadership.name=reports",
					"distributed-lock.leadership.auto-startup=false")
			.run((context) -> {
				LeadershipInitiator initiator = context.getBean(LeadershipInitiator.class);
				assertThat(initiator.isRunning()).isFalse();
				assertThat(initiator.currentTerm()).isNull();
				initiator.start();
				awaitGranted(context);
				assertThat(context.getBean(OrdersConsumer.class).isRunning()).isTrue();
			});
	}

	@Test
	void blankNameFailsStartUpNamingTheProperty() {
		this.contextRunner.withPropertyValues("distributed-lock.leadership.name= ")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.rootCause()
				.isInstanceOf(InvalidConfigurationPropertyValueException.class)
				.hasMessageContaining("distributed-lock.leadership.name"));
	}

	@Test
	void leaderOnlyBeanThatStartsWithTheContextFailsStartUpNamingIt() {
		this.contextRunner.withUserConfiguration(SelfStartingConfiguration.class)
			.withPropertyValues("distributed-lock.leadership.name=self-starting")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOf(BeanCreationException.class)
				.hasMessageContaining("'selfStarting'")
				.hasMessageContaining("isAutoStartup()"));
	}

	@Test
	void leaderOnlyBeanThatIsNoLifecycleFailsStartUpNamingIt() {
		this.contextRunner.withBean("plain", PlainBean.class)
			.withPropertyValues("distributed-lock.leadership.name=plain")
			.run((context) -> assertThat(context).hasFailed()
				.getFailure()
				.isInstanceOf(BeanCreationException.class)
				.hasMessageContaining("'plain'")
				.hasMessageContaining("Lifecycle"));
	}

	@Test
	void initiatorNamesItsBadArguments() {
		this.contextRunner.run((context) -> {
			ZooKeeperLockRegistry registry = context.getBean(ZooKeeperLockRegistry.class);
			assertThatIllegalArgumentException().isThrownBy(() -> new LeadershipInitiator(null, "orders", context))
				.withMessageContaining("'registry'");
			assertThatIllegalArgumentException().isThrownBy(() -> new LeadershipInitiator(registry, "", context))
				.withMessageContaining("Election name");
			assertThatIllegalArgumentException().isThrownBy(() -> new LeadershipInitiator(registry, "orders", null))
				.withMessageContaining("'publisher'");
		});
	}

	@Test
	void backsOffFromTheApplicationsOwnInitiator() {
		this.contextRunner.withPropertyValues("distributed-lock.leadership.name=orders")
			.withUserConfiguration(OwnInitiatorConfiguration.class)
			.run((context) -> assertThat(context).hasSingleBean(LeadershipInitiator.class)
				.hasBean("myInitiator")
				.hasSingleBean(LeaderRoleController.class));
	}

	private static LeaderTerm awaitGranted(AssertableApplicationContext context) {
		List<LeadershipEvent> events = events(context);
		await().atMost(AWAIT).until(() -> events.stream().anyMatch(LeadershipGrantedEvent.class::isInstance));
		return events.get(events.size() - 1).getTerm();
	}

	private static List<LeadershipEvent> events(AssertableApplicationContext context) {
		return context.getBean(LeadershipEvents.class).events;
	}

	@Configuration(proxyBeanMethods = false)
	static class ConsumerConfiguration {

		@Bean
		@LeaderOnly
		OrdersConsumer ordersConsumer(ZooKeeperLockRegistry registry) {
			return new OrdersConsumer(registry);
		}

		@Bean
		LeadershipEvents leadershipEvents() {
			return new LeadershipEvents();
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class SelfStartingConfiguration {

		@Bean
		@LeaderOnly
		OrdersConsumer selfStarting(ZooKeeperLockRegistry registry) {
			OrdersConsumer consumer = new OrdersConsumer(registry);
			consumer.autoStartup = true;
			return consumer;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class OwnInitiatorConfiguration {

		@Bean
		LeadershipInitiator myInitiator(ZooKeeperLockRegistry registry, ApplicationEventPublisher publisher) {
			return new LeadershipInitiator(registry, "mine", publisher);
		}

	}

	@LeaderOnly
	static class PlainBean {

	}

	/** Every leadership event of an application, in order. */
	static class LeadershipEvents implements ApplicationListener<LeadershipEvent> {

		final List<LeadershipEvent> events = new CopyOnWriteArrayList<>();

		@Override
		public void onApplicationEvent(LeadershipEvent event) {
			this.events.add(event);
		}

	}

	/** A leader-only consumer that records how it was started and stopped. */
	static class OrdersConsumer implements SmartLifecycle {

		private final ZooKeeperLockRegistry registry;

		boolean autoStartup;

		private volatile boolean running;

		private volatile int starts;

		private volatile boolean stoppedWhileLeading;

		OrdersConsumer(ZooKeeperLockRegistry registry) {
			this.registry = registry;
		}

		@Override
		public boolean isAutoStartup() {
			return this.autoStartup;
		}

		@Override
		public void start() {
			this.starts++;
			this.running = true;
		}

		@Override
		public void stop() {
			// the term is revoked, but its lock not yet released
			this.stoppedWhileLeading = !this.registry.heldLocks().isEmpty();
			this.running = false;
		}

		@Override
		public boolean isRunning() {
			return this.running;
		}

		int starts() {
			return this.starts;
		}

		boolean stoppedWhileLeading() {
			return this.stoppedWhileLeading;
		}

	}

}
