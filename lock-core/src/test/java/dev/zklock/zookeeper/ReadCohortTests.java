package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;

import dev.zklock.LockAcquisitionException;
import dev.zklock.LockTimeoutException;
import dev.zklock.LockType;
import org.apache.curator.framework.CuratorFramework;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatExceptionOfType;
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

	/**
	 * A read node that left the cohort when a reader led a new one stays held until the
	 * last of its readers leaves: {@code nextTurn} hands it to its readers with their
	 * count, and {@code leave} counts them down. A writer of another process does not get
	 * in while one of them still reads.
	 */
	@Test
	void readNodeThatLeftTheCohortIsHeldUntilItsLastReaderLeaves() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 1, Duration.ofMinutes(1)));
		ZooKeeperLockRegistry other = registry(HandOffPolicy.disabled(), this.zookeeper.newClient());
		HeldByThread first = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		HeldByThread second = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		HeldByThread otherReader = HeldByThread.start(this.threads, other, "doc", LockType.READ);
		HeldByThread third = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		assertThat(nodeOf(third)).isNotEqualTo(nodeOf(first));
		third.release();
		otherReader.release();
		second.release();
		// read through this process's session, after the deletions it sent
		assertThat(registry.queueOf("doc")).isNotEmpty();
		assertThatExceptionOfType(LockTimeoutException.class)
			.as("a writer of another process while the first reader still reads")
			.isThrownBy(() -> other.acquire("doc", LockType.WRITE, 1, Duration.ZERO));
		first.release();
		other.acquire("doc", LockType.WRITE, 1, LONG_WAIT).release();
	}

	/**
	 * A reader that the held read node cannot take because its fencing tokens ran out
	 * leads a new read node at once ({@code leadsAnotherReadNode}'s check of the room of
	 * tokens), rather than wait for the held node's readers to leave.
	 */
	@Test
	void readerPastTheRoomOfTheHeldNodesTokensLeadsANewReadNodeWhileItsReadersHold() throws Exception {
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, LockNode.MAX_HAND_OFFS, Duration.ofHours(1)));
		HeldByThread first = HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		for (int handOff = 1; handOff <= LockNode.MAX_HAND_OFFS; handOff++) {
			AcquiredLock joined = registry.acquire("doc", LockType.READ, 1, LONG_WAIT);
			assertThat(joined.fencingToken()).isEqualTo(first.lock.fencingToken() + handOff);
			joined.release();
		}
		AcquiredLock next = registry.acquire("doc", LockType.READ, 1, LONG_WAIT);
		assertThat(next.fencingToken() >> LockNode.HAND_OFF_BITS).isGreaterThan(nodeOf(first));
		next.release();
		first.release();
	}

	/**
	 * A reader that the held read node takes only if nobody queues behind it, and whose
	 * question who queues cannot be sent, acts as if another node queued (the driver's
	 * answer for a request that failed): it leads a node of its own rather than wait for
	 * the held node's readers. Curator refuses the request at once only when closed: the
	 * reader then fails for want of ZooKeeper, not for the reader of its own process.
	 */
	@Test
	void readerWhoseQuestionWhoQueuesCannotBeSentLeadsRatherThanWaitForTheHeldNodesReaders() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		ZooKeeperLockRegistry registry = registry(new HandOffPolicy(true, 0, Duration.ofMinutes(1)), client);
		HeldByThread.start(this.threads, registry, "doc", LockType.READ);
		client.close();
		assertThatExceptionOfType(LockAcquisitionException.class)
			.isThrownBy(() -> registry.acquire("doc", LockType.READ, 1, Duration.ofSeconds(1)))
			.isNotInstanceOf(LockTimeoutException.class)
			.withMessageContaining("could not be reached");
	}

	private static long nodeOf(HeldByThread holder) {
		return holder.lock.fencingToken() >> LockNode.HAND_OFF_BITS;
	}

}
