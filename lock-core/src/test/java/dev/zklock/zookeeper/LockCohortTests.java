package dev.zklock.zookeeper;

import java.lang.reflect.Field;
import java.time.Duration;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.ReentrantLock;

import org.awaitility.Awaitility;
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

	/**
	 * The loss detector raises a doubt on the holds it saw registered: one of them may
	 * have passed its node on since, to a successor registered after the doubt, whose
	 * turn the doubt count guards. The late doubt about the former holder leaves the node
	 * taking holders.
	 */
	@Test
	void doubtAboutAHoldThatPassedItsNodeOnDoesNotRetireItsSuccessorsNode() throws Exception {
		LockNode exclusiveNode = new LockNode("/locks/doc/_c_1-lock-0000000000", LockNodeKind.EXCLUSIVE, 1, 1);
		assertThat(exclusiveTurn()).isEqualTo(LockKey.Turn.LEAD);
		LockKey.Hold first = new LockKey.Hold(this.lockKey, exclusiveNode, 0, Thread.currentThread());
		assertThat(this.lockKey.begin(first, true, 3)).isTrue();
		LockKey.Waiter second = this.lockKey.arrive(LockNodeKind.EXCLUSIVE);
		assertThat(this.lockKey.exit(first)).isEqualTo(LockKey.Change.ENDED);
		assertThat(this.lockKey.giveBack(first, true, 3)).as("passed on").isNull();
		LockKey.Turn secondTurn = this.lockKey.await(second, System.nanoTime());
		assertThat(secondTurn).isEqualTo(new LockKey.Turn(exclusiveNode, 1, 3));
		LockKey.Hold successor = new LockKey.Hold(this.lockKey, exclusiveNode, 1, null);
		assertThat(this.lockKey.begin(successor, false, 3)).isTrue();
		first.markUncertain();
		LockKey.Waiter third = this.lockKey.arrive(LockNodeKind.EXCLUSIVE);
		assertThat(this.lockKey.exit(successor)).isEqualTo(LockKey.Change.ENDED);
		assertThat(this.lockKey.giveBack(successor, true, 3)).as("passed on again").isNull();
		assertThat(this.lockKey.await(third, System.nanoTime())).isEqualTo(new LockKey.Turn(exclusiveNode, 2, 3));
	}

	/**
	 * A hold whose lock may have been lost (a doubt, a loss) passes its node to nobody:
	 * the release retires it, and the waiter leads a new turn. The waiter's own check of
	 * the doubt count would also refuse the node; this is the release's guard, which
	 * spares the waiter a turn it would give up.
	 */
	@Test
	void releaseOfAHoldThatMayHaveBeenLostPassesItsNodeToNobody() throws Exception {
		LockNode exclusiveNode = new LockNode("/locks/doc/_c_1-lock-0000000000", LockNodeKind.EXCLUSIVE, 1, 1);
		assertThat(exclusiveTurn()).isEqualTo(LockKey.Turn.LEAD);
		LockKey.Hold hold = new LockKey.Hold(this.lockKey, exclusiveNode, 0, Thread.currentThread());
		assertThat(this.lockKey.begin(hold, true, 3)).isTrue();
		LockKey.Waiter waiter = this.lockKey.arrive(LockNodeKind.EXCLUSIVE);
		assertThat(this.lockKey.exit(hold)).isEqualTo(LockKey.Change.ENDED);
		assertThat(this.lockKey.giveBack(hold, false, 4)).as("released to ZooKeeper").isEqualTo(exclusiveNode);
		assertThat(this.lockKey.await(waiter, System.nanoTime())).isEqualTo(LockKey.Turn.LEAD);
	}

	/**
	 * A loss declared after the acquisition found its node held but before the hold
	 * began: the hold does not begin, and its node never joins the cohort. {@code begin}
	 * is the only guard between that check and the hold (a waiter's own check of the
	 * doubt count would refuse the node later, but the acquisition would have returned a
	 * lost lock).
	 */
	@Test
	void holdLostBeforeItBeginsDoesNotBegin() throws Exception {
		LockNode exclusiveNode = new LockNode("/locks/doc/_c_1-lock-0000000000", LockNodeKind.EXCLUSIVE, 1, 1);
		assertThat(exclusiveTurn()).isEqualTo(LockKey.Turn.LEAD);
		LockKey.Hold hold = new LockKey.Hold(this.lockKey, exclusiveNode, 0, Thread.currentThread());
		assertThat(hold.markLost("the session ended")).isTrue();
		assertThat(this.lockKey.begin(hold, true, 3)).isFalse();
		assertThat(this.lockKey.reenter(LockNodeKind.EXCLUSIVE, Thread.currentThread())).isNull();
	}

	/**
	 * A waiter interrupted just before its turn came keeps the turn, with its interrupt
	 * flag set: the interrupt wakes it, and while it waits for the key's lock to leave
	 * its wait, the releasing thread gives it the node. Dropping the turn would leave the
	 * node counted as held by a thread that never holds it. The test holds the key's lock
	 * (through reflection: no event holds it while another thread runs) across the
	 * interrupt and the release, which forces that order.
	 */
	@Test
	void waiterInterruptedJustBeforeItsTurnCameKeepsTheTurn() throws Exception {
		LockNode exclusiveNode = new LockNode("/locks/doc/_c_1-lock-0000000000", LockNodeKind.EXCLUSIVE, 1, 1);
		assertThat(exclusiveTurn()).isEqualTo(LockKey.Turn.LEAD);
		LockKey.Hold hold = new LockKey.Hold(this.lockKey, exclusiveNode, 0, Thread.currentThread());
		assertThat(this.lockKey.begin(hold, true, 3)).isTrue();
		CompletableFuture<LockKey.Turn> turn = new CompletableFuture<>();
		AtomicBoolean interruptedAfterTurn = new AtomicBoolean();
		Thread waiter = new Thread(() -> {
			try {
				turn.complete(this.lockKey.await(this.lockKey.arrive(LockNodeKind.EXCLUSIVE),
						System.nanoTime() + Duration.ofMinutes(1).toNanos()));
				interruptedAfterTurn.set(Thread.currentThread().isInterrupted());
			}
			catch (Throwable ex) {
				turn.completeExceptionally(ex);
			}
		});
		waiter.start();
		Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> waiter.getState() == Thread.State.TIMED_WAITING);
		ReentrantLock keyLock = keyLock();
		keyLock.lock();
		try {
			waiter.interrupt();
			Awaitility.await().atMost(Duration.ofMinutes(1)).until(() -> keyLock.hasQueuedThread(waiter));
			assertThat(this.lockKey.exit(hold)).isEqualTo(LockKey.Change.ENDED);
			assertThat(this.lockKey.giveBack(hold, true, 3)).as("passed on").isNull();
		}
		finally {
			keyLock.unlock();
		}
		assertThat(turn.get(1, TimeUnit.MINUTES)).isEqualTo(new LockKey.Turn(exclusiveNode, 1, 3));
		waiter.join();
		assertThat(interruptedAfterTurn).isTrue();
	}

	/**
	 * Readers that waited while their cohort's leader queued join its node as soon as the
	 * leader holds it ({@code led}'s {@code passOn}), with no ZooKeeper round trip: not
	 * only once ZooKeeper answers who queues behind the node.
	 */
	@Test
	void readerThatWaitedForTheLeaderJoinsItsNodeOnceTheLeaderHoldsIt() throws Exception {
		assertThat(turnWithin(Duration.ofSeconds(1))).isEqualTo(LockKey.Turn.LEAD);
		LockKey.Waiter reader = this.lockKey.arrive(LockNodeKind.SHARED);
		assertThat(this.lockKey.begin(holdOf(this.node), true, 7)).isTrue();
		assertThat(this.lockKey.await(reader, System.nanoTime())).isEqualTo(new LockKey.Turn(this.node, 1, 7));
	}

	/**
	 * A node passed on carries the doubt count of its latest check, the releasing
	 * holder's ({@code leave}'s update of the node's check on a hand-off): a doubt
	 * counted before that check, which the node outlived (one raised before its leader's
	 * hold was registered reaches no hold of it), does not make the next holder refuse
	 * it.
	 */
	@Test
	void nodePassedOnCarriesTheDoubtCountOfTheReleasingHoldersCheck() throws Exception {
		LockNode exclusiveNode = new LockNode("/locks/doc/_c_1-lock-0000000000", LockNodeKind.EXCLUSIVE, 1, 1);
		assertThat(exclusiveTurn()).isEqualTo(LockKey.Turn.LEAD);
		LockKey.Hold hold = new LockKey.Hold(this.lockKey, exclusiveNode, 0, Thread.currentThread());
		assertThat(this.lockKey.begin(hold, true, 3)).isTrue();
		LockKey.Waiter waiter = this.lockKey.arrive(LockNodeKind.EXCLUSIVE);
		assertThat(this.lockKey.exit(hold)).isEqualTo(LockKey.Change.ENDED);
		assertThat(this.lockKey.giveBack(hold, true, 5)).as("passed on").isNull();
		assertThat(this.lockKey.await(waiter, System.nanoTime())).isEqualTo(new LockKey.Turn(exclusiveNode, 1, 5));
	}

	/**
	 * The nodes doubted while a leader queues are forgotten once the lead ends, whether
	 * the leader holds its node ({@code led}) or fails ({@code leadFailed}): the state of
	 * a key in constant use, dropped only once no acquisition uses it, would otherwise
	 * keep every node doubted during any of its leads.
	 */
	@Test
	void nodesDoubtedWhileALeaderQueuedAreForgottenOnceTheLeadEnds() throws Exception {
		LockNode earlier = new LockNode("/locks/doc/_c_0-read-0000000009", LockNodeKind.SHARED, 1, 1);
		assertThat(turnWithin(Duration.ofSeconds(1))).isEqualTo(LockKey.Turn.LEAD);
		holdOf(earlier).markUncertain();
		assertThat(doubtedWhileLeading()).containsExactly(earlier);
		this.lockKey.leadFailed(LockNodeKind.SHARED);
		assertThat(doubtedWhileLeading()).as("after the lead failed").isEmpty();
		assertThat(turnWithin(Duration.ofSeconds(1))).isEqualTo(LockKey.Turn.LEAD);
		holdOf(earlier).markUncertain();
		assertThat(doubtedWhileLeading()).containsExactly(earlier);
		assertThat(this.lockKey.begin(holdOf(this.node), true, 0)).isTrue();
		assertThat(doubtedWhileLeading()).as("after the leader held its node").isEmpty();
	}

	/**
	 * The read cohort's nodes doubted while its leader queues, read under the key's lock.
	 */
	private Set<Object> doubtedWhileLeading() throws ReflectiveOperationException {
		Field cohortField = LockKey.class.getDeclaredField("shared");
		cohortField.setAccessible(true);
		Object cohort = cohortField.get(this.lockKey);
		Field doubted = cohort.getClass().getDeclaredField("doubtedWhileLeading");
		doubted.setAccessible(true);
		ReentrantLock keyLock = keyLock();
		keyLock.lock();
		try {
			return Set.copyOf((Set<?>) doubted.get(cohort));
		}
		finally {
			keyLock.unlock();
		}
	}

	private ReentrantLock keyLock() throws ReflectiveOperationException {
		Field lock = LockKey.class.getDeclaredField("lock");
		lock.setAccessible(true);
		return (ReentrantLock) lock.get(this.lockKey);
	}

	private LockKey.Turn exclusiveTurn() throws InterruptedException {
		return this.lockKey.await(this.lockKey.arrive(LockNodeKind.EXCLUSIVE), System.nanoTime());
	}

	private LockKey.Hold holdOf(LockNode held) {
		return new LockKey.Hold(this.lockKey, held, 0, null);
	}

	private LockKey.Turn turnWithin(Duration duration) throws InterruptedException {
		LockKey.Waiter waiter = this.lockKey.arrive(LockNodeKind.SHARED);
		return this.lockKey.await(waiter, System.nanoTime() + duration.toNanos());
	}

}
