package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayDeque;
import java.util.Deque;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockTimeoutException;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * A delayed release (a hold-at-least) of a re-entered acquisition, run by the registry's
 * scheduler while the owner thread releases its outer acquisition and acquires the key
 * again, never lets the owner believe it holds a lock that another holder has. The
 * owner's steps are taken on the scheduler's thread, from the step that a delayed release
 * runs once it counted its exit and before it acts on it, against a real ZooKeeper
 * server: the interleaving that once ended the hold under the owner's re-entry.
 */
class DelayedReleaseReentryTests {

	private static final Duration WAIT = Duration.ofSeconds(10);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final Thread owner = new Thread(() -> {
	}, "owner");

	private ZooKeeperLockRegistry registry;

	private ZooKeeperLockRegistry otherProcess;

	@BeforeEach
	void connect() throws Exception {
		this.registry = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
		this.otherProcess = new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
	}

	@AfterEach
	void stop() {
		this.otherProcess.close();
		this.registry.close();
	}

	@Test
	void ownerThatReleasesAndAcquiresAgainDuringADelayedReleaseHoldsTheLockAlone() throws Exception {
		AcquiredLock outer = acquire();
		AcquiredLock inner = acquire();
		Deque<Runnable> ownerSteps = new ArrayDeque<>();
		CompletableFuture<AcquiredLock> again = new CompletableFuture<>();
		ownerSteps.add(outer::release);
		ownerSteps.add(() -> again.complete(acquire()));
		this.registry.onDelayedExitCounted(() -> {
			Runnable step = ownerSteps.poll();
			if (step != null) {
				step.run();
			}
		});
		inner.releaseAfter(Duration.ZERO).toCompletableFuture().get(WAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(ownerSteps).as("the owner's steps left once the delayed release counted its exit").hasSize(1);
		ownerSteps.forEach(Runnable::run);
		AcquiredLock held = again.get(WAIT.toSeconds(), TimeUnit.SECONDS);
		assertThat(held.isValid()).isTrue();
		assertThatExceptionOfType(LockTimeoutException.class)
			.as("another process acquiring lock 'k' while " + "the owner believes it holds it with fencing token "
					+ held.fencingToken())
			.isThrownBy(() -> this.otherProcess.acquire("k", Duration.ZERO).release());
		held.release();
		AcquiredLock taken = this.otherProcess.acquire("k", WAIT);
		assertThat(taken.fencingToken()).isGreaterThan(held.fencingToken());
		taken.release();
	}

	private AcquiredLock acquire() {
		return this.registry.acquire("k", LockNodeKind.EXCLUSIVE, WAIT, this.owner);
	}

}
