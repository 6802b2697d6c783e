package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockType;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

/**
 * Readers of one process never wait for each other: once the read node they share takes
 * no more readers, the next reader joins it if nothing queues behind it, and otherwise
 * leads a new read node, which queues behind whatever queued meanwhile (a writer too).
 * Each test holds the first readers until the next one holds: on a reader that waited for
 * them, it would fail after its wait time.
 */
class ReadCohortTests extends AbstractLockHandOffTests {

	@Test
	void readerPastTheJoinCountJoinsTheHeldReadNodeWhenNothingQueuesBehindIt() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 1, Duration.ofMinutes(1)));
		HeldByThread first = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		HeldByThread second = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		HeldByThread third = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		assertThat(nodeOf(third)).isEqualTo(nodeOf(first)).isEqualTo(nodeOf(second));
		third.release();
		second.release();
		first.release();
	}

	@Test
	void readerPastTheJoinCountLeadsANewReadNodeWhenAnotherProcessQueuedBehind() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 1, Duration.ofMinutes(1)));
		ZooKeeperLockRegistry other = registry(HandOffPolicy.disabled(), this.zookeeper.newClient());
		HeldByThread first = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		HeldByThread second = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		HeldByThread otherReader = HeldByThread.start(this.threads, other, "doc", LockType.READ);
		HeldByThread third = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		assertThat(nodeOf(third)).isNotEqualTo(nodeOf(first));
		assertThat(third.lock.fencingToken()).isGreaterThan(otherReader.lock.fencingToken());
		HeldByThread fourth = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		assertThat(nodeOf(fourth)).as("the reader after joins the new node").isEqualTo(nodeOf(third));
		for (HeldByThread reader : new HeldByThread[] { fourth, third, otherReader, second, first }) {
			reader.release();
		}
		await().until(() -> registry.queueOf("doc").isEmpty());
	}

	@Test
	void readerPastTheJoinCountQueuesBehindAWriterOfAnotherProcess() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 1, Duration.ofMinutes(1)));
		ZooKeeperLockRegistry other = registry(HandOffPolicy.disabled(), this.zookeeper.newClient());
		HeldByThread first = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		HeldByThread second = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		HeldByThread writer = HeldByThread.startWaiting(this.threads, other, "doc", LockType.WRITE);
		await().until(() -> registry.queueOf("doc").size() == 2);
		HeldByThread third = HeldByThread.startWaiting(this.threads, registry, "doc", LockType.READ);
		await().until(() -> registry.queueOf("doc").size() == 3);
		CompletableFuture<Void> firstReadersLeave = CompletableFuture.runAsync(() -> {
			try {
				second.release();
				first.release();
			}
			catch (Exception ex) {
				throw new IllegalStateException(ex);
			}
		});
		writer.awaitHeld();
		firstReadersLeave.get(10, TimeUnit.SECONDS);
		assertThat(third.lock).as("the reader behind the writer, while the writer holds").isNull();
		writer.release();
		third.awaitHeld();
		assertThat(third.lock.fencingToken()).isGreaterThan(writer.lock.fencingToken());
		third.release();
	}

	private static long nodeOf(HeldByThread holder) {
		return holder.lock.fencingToken() >> LockNode.HAND_OFF_BITS;
	}

}
