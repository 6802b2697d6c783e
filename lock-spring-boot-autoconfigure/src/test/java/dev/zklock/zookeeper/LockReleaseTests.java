package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;

import dev.zklock.LockHandle;
import dev.zklock.LockTemplate;
import dev.zklock.LockTimeoutException;
import dev.zklock.observation.DefaultLockObservationConvention;
import dev.zklock.testsupport.AbstractProxiedZooKeeperTests;
import io.micrometer.core.instrument.LongTaskTimer;
import io.micrometer.core.instrument.observation.DefaultMeterObservationHandler;
import io.micrometer.core.instrument.simple.SimpleMeterRegistry;
import io.micrometer.observation.ObservationRegistry;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

import org.springframework.boot.test.system.CapturedOutput;
import org.springframework.boot.test.system.OutputCaptureExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A release sends the deletion of its lock node and returns, without waiting for
 * ZooKeeper's reply: another process sees the lock free once ZooKeeper applied the
 * deletion, and the releasing session's next request on the key is applied after it. The
 * releasing client talks to the server through a proxy that holds replies back or loses
 * requests.
 */
@ExtendWith(OutputCaptureExtension.class)
class LockReleaseTests extends AbstractProxiedZooKeeperTests {

	private static final Duration LONG_WAIT = Duration.ofSeconds(20);

	@Test
	void releaseReturnsBeforeZooKeeperAnswersAndTheKeyIsFreeForOthersOnceTheDeleteIsApplied(CapturedOutput output)
			throws Exception {
		ZooKeeperLockRegistry releasing = registry(this.proxiedClient);
		ZooKeeperLockRegistry other = registry(this.zookeeper.newClient());
		AcquiredLock held = releasing.acquire("leaving", LONG_WAIT);
		this.proxy.holdReplies();
		held.release();
		assertThat(held.isValid()).isFalse();
		assertThat(releasing.keysInUse()).isZero();
		AcquiredLock next = other.acquire("leaving", LONG_WAIT);
		assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
		next.release();
		Future<AcquiredLock> again = this.threads.submit(() -> releasing.acquire("leaving", LONG_WAIT));
		this.proxy.releaseReplies();
		AcquiredLock third = again.get(LONG_WAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(third.fencingToken()).isGreaterThan(next.fencingToken());
		third.release();
		assertThat(output).doesNotContain("Could not");
	}

	@Test
	void holdObservationEndsAtTheReleaseCallNotAtZooKeepersReply() throws Exception {
		SimpleMeterRegistry meters = new SimpleMeterRegistry();
		ObservationRegistry observations = ObservationRegistry.create();
		observations.observationConfig().observationHandler(new DefaultMeterObservationHandler(meters));
		LockTemplate template = new LockTemplate(registry(this.proxiedClient), LONG_WAIT);
		template.setObservationRegistry(observations);
		LockHandle handle = template.execute("observed", (lock) -> {
			this.proxy.holdReplies();
			return lock;
		});
		assertThat(handle.isValid()).isFalse();
		LongTaskTimer holds = meters.find(DefaultLockObservationConvention.HOLD.getName() + ".active").longTaskTimer();
		assertThat(holds).isNotNull();
		assertThat(holds.activeTasks()).isZero();
		this.proxy.releaseReplies();
	}

	@Test
	void processesThatReleaseAndTakeTheLockAgainAtOnceNeverHoldItTogether() throws Exception {
		List<ZooKeeperLockRegistry> processes = List.of(registry(this.proxiedClient),
				registry(this.zookeeper.newClient()), registry(this.zookeeper.newClient()));
		AtomicInteger holders = new AtomicInteger();
		AtomicInteger overlaps = new AtomicInteger();
		List<Long> tokensInHoldOrder = Collections.synchronizedList(new ArrayList<>());
		List<Future<?>> loops = new ArrayList<>();
		for (ZooKeeperLockRegistry process : processes) {
			loops.add(this.threads.submit(() -> {
				for (int i = 0; i < 100; i++) {
					AcquiredLock lock = process.acquire("contended", LONG_WAIT);
					if (holders.incrementAndGet() > 1) {
						overlaps.incrementAndGet();
					}
					tokensInHoldOrder.add(lock.fencingToken());
					holders.decrementAndGet();
					lock.release();
				}
				return null;
			}));
		}
		for (Future<?> loop : loops) {
			loop.get(2, TimeUnit.MINUTES);
		}
		assertThat(overlaps).hasValue(0);
		assertThat(tokensInHoldOrder).hasSize(300).isSorted().doesNotHaveDuplicates();
	}

	@Test
	void releaseWhoseDeleteIsLostToAConnectionDropStillFreesTheKey() throws Exception {
		ZooKeeperLockRegistry releasing = registry(this.proxiedClient);
		ZooKeeperLockRegistry other = registry(this.zookeeper.newClient());
		AcquiredLock held = releasing.acquire("dropped", LONG_WAIT);
		long session = this.proxiedClient.getZookeeperClient().getZooKeeper().getSessionId();
		this.proxy.loseRequests();
		held.release();
		assertThat(held.isValid()).isFalse();
		assertThatExceptionOfType(LockTimeoutException.class).isThrownBy(() -> other.acquire("dropped", Duration.ZERO));
		this.proxy.dropConnections();
		AcquiredLock next = other.acquire("dropped", LONG_WAIT);
		assertThat(next.fencingToken()).isGreaterThan(held.fencingToken());
		assertThat(this.proxiedClient.getZookeeperClient().getZooKeeper().getSessionId())
			.as("the releasing client's session")
			.isEqualTo(session);
		next.release();
	}

	private static ZooKeeperLockRegistry registry(CuratorFramework client) {
		return new ZooKeeperLockRegistry(client, "/locks", LostLockPolicy.defaults(), HandOffPolicy.defaults());
	}

}
