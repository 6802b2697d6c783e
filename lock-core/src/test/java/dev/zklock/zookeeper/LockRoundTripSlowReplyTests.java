package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockTimeoutException;
import dev.zklock.testsupport.ReplyHoldingProxy;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
import static org.awaitility.Awaitility.await;

/**
 * A lock's callers while ZooKeeper is slow to answer, or when they are interrupted: a
 * try-lock that ZooKeeper does not answer fails within the grace for replies and leaves
 * no node behind, an interrupt is kept, and a timeout ends within the grace.
 */
class LockRoundTripSlowReplyTests extends AbstractLockRoundTripTests {

	@Test
	void tryLockWhileZooKeeperDoesNotAnswerFailsWithinTheGraceAndLeavesNoNode() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		createUnreapedKeyNode(registry, "slow");
		ZooKeeperLock lock = registry.obtain("slow");
		this.proxy.holdReplies();
		long start = System.nanoTime();
		assertThatExceptionOfType(LockAcquisitionException.class).isThrownBy(lock::tryLock)
			.withMessageContaining("within 0ms")
			.withMessageContaining("did not answer in time");
		// the grace, and the scheduling delay of a busy machine
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(LockRoot.GRACE.plusSeconds(1));
		this.proxy.releaseReplies();
		await().atMost(LONG_WAIT).until(() -> registry.queueOf("slow").isEmpty());
		assertThat(lock.tryLock()).isTrue();
		lock.unlock();
	}

	@Test
	void callerInterruptedWhileZooKeeperDoesNotAnswerStaysInterrupted() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		createUnreapedKeyNode(registry, "interrupted");
		this.proxy.holdReplies();
		AtomicReference<Thread> acquiring = new AtomicReference<>();
		Future<Boolean> stillInterrupted = this.threads.submit(() -> {
			acquiring.set(Thread.currentThread());
			assertThatExceptionOfType(LockAcquisitionException.class)
				.isThrownBy(() -> registry.acquire("interrupted", LONG_WAIT))
				.withMessageContaining("Interrupted");
			return Thread.currentThread().isInterrupted();
		});
		await().during(LockRoot.GRACE.multipliedBy(2)).atMost(LONG_WAIT).until(() -> !stillInterrupted.isDone());
		acquiring.get().interrupt();
		assertThat(stillInterrupted.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		this.proxy.releaseReplies();
	}

	@Test
	void holderInterruptedBeforeItsReleaseStaysInterruptedAndTheLockIsFree() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		Future<Boolean> stillInterrupted = this.threads.submit(() -> {
			AcquiredLock lock = registry.acquire("leaving", LONG_WAIT);
			Thread.currentThread().interrupt();
			lock.release();
			return Thread.interrupted();
		});
		assertThat(stillInterrupted.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS)).isTrue();
		registry(this.zookeeper.newClient()).acquire("leaving", LONG_WAIT).release();
	}

	@Test
	void waiterWhoseLookAtTheHolderIsNotAnsweredIsToldZooKeeperDidNotAnswer() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		createUnreapedKeyNode(registry, "unanswered");
		AcquiredLock held = registry(this.zookeeper.newClient()).acquire("unanswered", LONG_WAIT);
		this.proxy.holdRepliesFrom(ReplyHoldingProxy.GET_DATA);
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> registry.acquire("unanswered", Duration.ofSeconds(1)))
			.withMessageContaining("did not answer in time");
		this.proxy.releaseReplies();
		held.release();
	}

	@Test
	void timeoutWhoseHolderCannotBeToldInTimeEndsWithinTheGraceWithoutADescription() throws Exception {
		ZooKeeperLockRegistry registry = registry(this.proxiedClient);
		createUnreapedKeyNode(registry, "undescribed");
		AcquiredLock held = registry(this.zookeeper.newClient()).acquire("undescribed", LONG_WAIT);
		Duration waitTime = Duration.ofSeconds(1);
		Future<Duration> timedOut = this.threads.submit(() -> {
			long start = System.nanoTime();
			assertThatExceptionOfType(LockTimeoutException.class)
				.isThrownBy(() -> registry.acquire("undescribed", waitTime))
				.withMessageNotContaining("pid");
			return Duration.ofNanos(System.nanoTime() - start);
		});
		await().until(() -> this.proxy.requests().contains(ReplyHoldingProxy.GET_DATA));
		// the waiter watches the holder's node; the read of the queue that would describe
		// the holder, once the wait times out, is not answered
		this.proxy.holdRepliesFrom(ReplyHoldingProxy.GET_CHILDREN2);
		// a margin for a busy machine that stays below the 6.7 s (two thirds of the
		// proxied client's session timeout) after which the held replies cost the
		// connection: a wait for the description's reply would last at least that long
		assertThat(timedOut.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS))
			.isLessThan(waitTime.plus(LockRoot.GRACE).plusSeconds(4));
		this.proxy.releaseReplies();
		held.release();
	}

}
