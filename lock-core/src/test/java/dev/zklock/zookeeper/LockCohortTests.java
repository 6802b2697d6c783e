package dev.zklock.zookeeper;

import java.time.Duration;

import org.apache.curator.framework.CuratorFrameworkFactory;
import org.apache.curator.retry.RetryOneTime;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interleavings of a cohort's leader and its doubts, forced step by step.
 */
class LockCohortTests {

	private static final HandOffPolicy POLICY = new HandOffPolicy(true, 64, Duration.ofMinutes(1));

	/**
	 * ZooKeeper never tells who queues behind the cohort's node (its client is never
	 * started, so no read is sent): the bounds apply.
	 */
	private static final LockQueue UNANSWERED = new LockQueue(
			new LockRoot(CuratorFrameworkFactory.newClient("127.0.0.1:1", new RetryOneTime(1)), "/locks"), "doc");

	private final LockQueue.QueuedNode node = new LockQueue.QueuedNode("/locks/doc/_c_1-read-0000000000",
			LockNodeKind.SHARED, 1, 1);

	@Test
	void readNodeDoubtedBeforeItsLeaderReportsItTakesNoReaders() throws Exception {
		LockCohort readers = new LockCohort(true, POLICY, UNANSWERED);
		assertThat(readers.await(deadlineIn(Duration.ofSeconds(1)))).isEqualTo(CohortTurn.LEAD);
		readers.retire(this.node);
		readers.led(this.node, 0);
		assertThat(readers.await(deadlineIn(Duration.ofMillis(100)))).isNull();
	}

	@Test
	void readNodeNotDoubtedTakesReadersWithTheNextHandOffs() throws Exception {
		LockCohort readers = new LockCohort(true, POLICY, UNANSWERED);
		readers.await(deadlineIn(Duration.ofSeconds(1)));
		readers.led(this.node, 7);
		assertThat(readers.await(deadlineIn(Duration.ofSeconds(1)))).isEqualTo(new CohortTurn(this.node, 1, 7));
		assertThat(readers.await(deadlineIn(Duration.ofSeconds(1)))).isEqualTo(new CohortTurn(this.node, 2, 7));
	}

	@Test
	void doubtAboutAnEarlierNodeDoesNotRetireTheNextOne() throws Exception {
		LockCohort readers = new LockCohort(true, POLICY, UNANSWERED);
		readers.await(deadlineIn(Duration.ofSeconds(1)));
		readers.retire(new LockQueue.QueuedNode("/locks/doc/_c_0-read-0000000009", LockNodeKind.SHARED, 1, 1));
		readers.led(this.node, 0);
		assertThat(readers.await(deadlineIn(Duration.ofSeconds(1)))).isNotNull();
	}

	private static long deadlineIn(Duration duration) {
		return System.nanoTime() + duration.toNanos();
	}

}
