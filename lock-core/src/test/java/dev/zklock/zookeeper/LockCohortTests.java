package dev.zklock.zookeeper;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

/**
 * The interleavings of a key's cohort leader and its doubts, forced event by event on the
 * key's state.
 */
class LockCohortTests {

	private static final HandOffPolicy POLICY = new HandOffPolicy(true, 64, Duration.ofMinutes(1));

	private final LockKey lockKey = new LockKey("doc", POLICY);

	private final LockNode node = new LockNode("/locks/doc/_c_1-read-0000000000", LockNodeKind.SHARED, 1, 1);

	@Test
	void readNodeDoubtedBeforeItsLeaderReportsItTakesNoReadersAndTheNextLeadsAnother() throws Exception {
		assertThat(turnWithin(Duration.ofSeconds(1))).isEqualTo(LockKey.Turn.LEAD);
		LockKey.Hold leader = holdOf(this.node);
		leader.markUncertain();
		assertThat(this.lockKey.begin(leader, true, 0)).isTrue();
		assertThat(turnWithin(Duration.ofSeconds(1))).isEqualTo(LockKey.Turn.LEAD);
		assertThat(turnWithin(Duration.ofMillis(100))).as("while the new node's leader queues").isNull();
	}

	@Test
	void doubtAboutAnotherNodeWhileLeadingDoesNotHideTheLeadersDoubt() throws Exception {
		turnWithin(Duration.ofSeconds(1));
		LockKey.Hold leader = holdOf(this.node);
		leader.markUncertain();
		holdOf(new LockNode("/locks/doc/_c_0-read-0000000009", LockNodeKind.SHARED, 1, 1)).markUncertain();
		assertThat(this.lockKey.begin(leader, true, 0)).isTrue();
		assertThat(turnWithin(Duration.ofSeconds(1))).isEqualTo(LockKey.Turn.LEAD);
	}

	@Test
	void readNodeNotDoubtedTakesReadersWithTheNextHandOffs() throws Exception {
		turnWithin(Duration.ofSeconds(1));
		assertThat(this.lockKey.begin(holdOf(this.node), true, 7)).isTrue();
		assertThat(turnWithin(Duration.ofSeconds(1))).isEqualTo(new LockKey.Turn(this.node, 1, 7));
		assertThat(turnWithin(Duration.ofSeconds(1))).isEqualTo(new LockKey.Turn(this.node, 2, 7));
	}

	@Test
	void doubtAboutAnEarlierNodeDoesNotRetireTheNextOne() throws Exception {
		turnWithin(Duration.ofSeconds(1));
		holdOf(new LockNode("/locks/doc/_c_0-read-0000000009", LockNodeKind.SHARED, 1, 1)).markUncertain();
		assertThat(this.lockKey.begin(holdOf(this.node), true, 0)).isTrue();
		assertThat(turnWithin(Duration.ofSeconds(1))).isNotNull();
	}

	private LockKey.Hold holdOf(LockNode held) {
		return new LockKey.Hold(this.lockKey, held, 0, null);
	}

	private LockKey.Turn turnWithin(Duration duration) throws InterruptedException {
		LockKey.Waiter waiter = this.lockKey.arrive(LockNodeKind.SHARED);
		return this.lockKey.await(waiter, System.nanoTime() + duration.toNanos());
	}

}
