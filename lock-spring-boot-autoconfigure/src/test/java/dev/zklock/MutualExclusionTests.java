package dev.zklock;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;

import dev.zklock.autoconfigure.DistributedLockAutoConfiguration;
import dev.zklock.autoconfigure.zookeeper.ZooKeeperAutoConfiguration;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import org.springframework.boot.autoconfigure.AutoConfigurations;
import org.springframework.boot.test.context.assertj.AssertableApplicationContext;
import org.springframework.boot.test.context.runner.ApplicationContextRunner;
import org.springframework.boot.test.context.runner.ContextConsumer;
import org.springframework.context.annotation.Bean;
import org.springframework.context.annotation.Configuration;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * Two application contexts, each with its own ZooKeeper session, run 8 threads each that
 * increment a shared counter with a non-atomic read, pause and write.
 */
class MutualExclusionTests {

	private static final int THREADS_PER_CONTEXT = 8;

	private static final int INCREMENTS_PER_THREAD = 12;

	@RegisterExtension
	static final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final ApplicationContextRunner contextRunner = new ApplicationContextRunner()
		.withConfiguration(
				AutoConfigurations.of(ZooKeeperAutoConfiguration.class, DistributedLockAutoConfiguration.class))
		.withPropertyValues("distributed-lock.zookeeper.connect-string=" + zookeeper.connectString(),
				"distributed-lock.wait-time=60s")
		.withUserConfiguration(CounterConfiguration.class);

	@Test
	void annotatedIncrementsLoseNoUpdate() throws Exception {
		SharedCounter counter = new SharedCounter();
		int expected = incrementFromTwoContexts(counter, (service) -> service.lockedIncrement(counter));
		assertThat(counter.value).isEqualTo(expected);
	}

	@Test
	void templateIncrementsLoseNoUpdate() throws Exception {
		SharedCounter counter = new SharedCounter();
		int expected = incrementFromTwoContexts(counter,
				(service) -> service.template().execute("counter", (lock) -> counter.increment()));
		assertThat(counter.value).isEqualTo(expected);
	}

	@Test
	void unlockedIncrementsLoseUpdates() throws Exception {
		SharedCounter counter = new SharedCounter();
		int expected = incrementFromTwoContexts(counter, (service) -> counter.increment());
		assertThat(counter.value).isLessThan(expected);
	}

	private int incrementFromTwoContexts(SharedCounter counter, Increment increment) throws Exception {
		List<Future<?>> work = new ArrayList<>();
		ExecutorService executor = Executors.newFixedThreadPool(2 * THREADS_PER_CONTEXT);
		try {
			this.contextRunner.run(inBothContexts((first, second) -> {
				for (int thread = 0; thread < 2 * THREADS_PER_CONTEXT; thread++) {
					CounterService service = ((thread % 2 == 0) ? first : second).getBean(CounterService.class);
					work.add(executor.submit(() -> {
						for (int i = 0; i < INCREMENTS_PER_THREAD; i++) {
							increment.apply(service);
						}
						return null;
					}));
				}
				for (Future<?> future : work) {
					future.get();
				}
			}));
		}
		finally {
			executor.shutdownNow();
		}
		return 2 * THREADS_PER_CONTEXT * INCREMENTS_PER_THREAD;
	}

	private ContextConsumer<AssertableApplicationContext> inBothContexts(BothContexts action) {
		return (first) -> this.contextRunner.run((second) -> {
			assertThat(sessionOf(first)).isNotEqualTo(sessionOf(second));
			action.run(first, second);
		});
	}

	private static long sessionOf(AssertableApplicationContext context) throws Exception {
		CuratorFramework client = context.getBean(CuratorFramework.class);
		assertThat(client.blockUntilConnected(10, TimeUnit.SECONDS)).isTrue();
		return client.getZookeeperClient().getZooKeeper().getSessionId();
	}

	interface BothContexts {

		void run(AssertableApplicationContext first, AssertableApplicationContext second) throws Exception;

	}

	interface Increment {

		void apply(CounterService service) throws Exception;

	}

	static class SharedCounter {

		volatile int value;

		int increment() throws InterruptedException {
			int read = this.value;
			Thread.sleep(1);
			this.value = read + 1;
			return read + 1;
		}

	}

	@Configuration(proxyBeanMethods = false)
	static class CounterConfiguration {

		@Bean
		CounterService counterService(LockTemplate lockTemplate) {
			return new CounterService(lockTemplate);
		}

	}

	static class CounterService {

		private final LockTemplate template;

		CounterService(LockTemplate template) {
			this.template = template;
		}

		LockTemplate template() {
			return this.template;
		}

		@DistributedLock(key = "'counter'")
		void lockedIncrement(SharedCounter counter) throws InterruptedException {
			counter.increment();
		}

	}

}
