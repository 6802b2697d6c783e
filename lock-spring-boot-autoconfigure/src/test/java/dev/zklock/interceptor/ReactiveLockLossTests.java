package dev.zklock.interceptor;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockLostException;
import org.apache.curator.framework.CuratorFramework;
import org.apache.curator.framework.state.ConnectionState;
import org.apache.curator.framework.state.ConnectionStateListener;
import org.junit.jupiter.api.Test;
import reactor.core.publisher.Signal;
import reactor.core.publisher.Sinks;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * Reactor results whose lock is lost while they run end with a {@link LockLostException},
 * after the items they emitted or as a suppressed exception of their own failure.
 */
class ReactiveLockLossTests extends AbstractReactiveLockTests {

	@Test
	void fluxWhoseLockIsLostMidStreamEndsWithLockLostExceptionAfterItsItems() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			Sinks.Many<String> feed = Sinks.many().unicast().onBackpressureBuffer();
			List<String> received = new CopyOnWriteArrayList<>();
			CompletableFuture<List<Signal<String>>> signals = reports.feed("lost-feed", feed.asFlux())
				.doOnNext(received::add)
				.materialize()
				.collectList()
				.toFuture();
			feed.tryEmitNext("before").orThrow();
			await().atMost(Duration.ofSeconds(10)).until(() -> received.contains("before"));
			loseSession(context.getBean(CuratorFramework.class));
			feed.tryEmitNext("after").orThrow();
			feed.tryEmitComplete().orThrow();
			List<Signal<String>> result = signals.get(10, TimeUnit.SECONDS);
			assertThat(result).hasSize(3);
			assertThat(result.subList(0, 2)).extracting(Signal::get).containsExactly("before", "after");
			assertThat(result.get(2).getThrowable()).isInstanceOf(LockLostException.class)
				.hasMessageContaining("'lost-feed'");
		});
	}

	@Test
	void fluxThatFailsAfterItsLockWasLostCarriesTheLossAsSuppressed() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			Sinks.Many<String> feed = Sinks.many().unicast().onBackpressureBuffer();
			CompletableFuture<List<String>> items = reports.feed("broken-feed", feed.asFlux()).collectList().toFuture();
			await().atMost(Duration.ofSeconds(10)).until(() -> heldElsewhere("broken-feed"));
			loseSession(context.getBean(CuratorFramework.class));
			IllegalStateException failure = new IllegalStateException("feed broke");
			feed.tryEmitError(failure).orThrow();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> items.get(10, TimeUnit.SECONDS))
				.withCause(failure);
			assertThat(failure.getSuppressed()).singleElement().isInstanceOf(LockLostException.class);
		});
	}

	@Test
	void monoWhoseLockIsLostFailsWithLockLostException() {
		this.contextRunner.run((context) -> {
			ReactiveReports reports = context.getBean(ReactiveReports.class);
			Sinks.One<String> answer = Sinks.one();
			CompletableFuture<String> result = reports.answer("lost-answer", answer.asMono()).toFuture();
			await().atMost(Duration.ofSeconds(10)).until(() -> heldElsewhere("lost-answer"));
			loseSession(context.getBean(CuratorFramework.class));
			answer.tryEmitValue("late").orThrow();
			assertThatExceptionOfType(ExecutionException.class).isThrownBy(() -> result.get(10, TimeUnit.SECONDS))
				.withCauseInstanceOf(LockLostException.class);
		});
	}

	/**
	 * Ends the client's ZooKeeper session and waits until its locks know: Curator tells
	 * its listeners about one connection state after the other, so once this test's
	 * listener hears that the client reconnected, the registry has heard that the session
	 * was lost.
	 */
	private static void loseSession(CuratorFramework client) throws Exception {
		CountDownLatch reconnected = new CountDownLatch(1);
		ConnectionStateListener listener = (source, state) -> {
			if (state == ConnectionState.RECONNECTED) {
				reconnected.countDown();
			}
		};
		client.getConnectionStateListenable().addListener(listener);
		try {
			client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
			assertThat(reconnected.await(10, TimeUnit.SECONDS)).as("client reconnected in a new session").isTrue();
		}
		finally {
			client.getConnectionStateListenable().removeListener(listener);
		}
	}

}
