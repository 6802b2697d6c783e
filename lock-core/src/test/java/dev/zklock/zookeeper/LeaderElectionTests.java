package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.concurrent.BlockingQueue;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;

import com.example.feeds.FeedLeadership;
import dev.zklock.LockManager;
import dev.zklock.LockType;
import dev.zklock.ReleasableLock;
import dev.zklock.testsupport.ReplyHoldingProxy;
import dev.zklock.testsupport.ZooKeeperTestServer;
import org.apache.curator.framework.CuratorFramework;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.RegisterExtension;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;
import static org.assertj.core.api.Assertions.assertThatNoException;
import static org.awaitility.Awaitility.await;

/**
 * Leader elections among candidates with clients and registries of their own, against a
 * real ZooKeeper server: one leader at a time, a greater fencing token each term, and a
 * term revoked when the candidate yields, closes, or can no longer tell that it holds the
 * election's lock.
 */
class LeaderElectionTests {

	private static final Duration AWAIT = Duration.ofSeconds(20);

	@RegisterExtension
	final ZooKeeperTestServer zookeeper = new ZooKeeperTestServer();

	private final List<LeaderElection> elections = new CopyOnWriteArrayList<>();

	/** Leaders between a grant and its revocation, over all candidates of a test. */
	private final AtomicInteger leading = new AtomicInteger();

	private final AtomicInteger mostLeading = new AtomicInteger();

	@AfterEach
	void closeElections() {
		this.elections.forEach(LeaderElection::close);
	}

	@Test
	void aLoneCandidateIsGrantedOnceWithItsLocksFencingToken() throws Exception {
		ZooKeeperLockRegistry registry = registry();
		Candidate candidate = candidate(registry, "orders-consumer");
		LeaderTerm term = candidate.granted();
		assertThat(term.key()).isEqualTo("orders-consumer");
		assertThat(term.isValid()).isTrue();
		assertThat(candidate.election.isLeader()).isTrue();
		assertThat(candidate.election.currentTerm()).isSameAs(term);
		assertThat(registry.heldLocks()).singleElement()
			.satisfies((held) -> assertThat(held.fencingToken()).isEqualTo(term.fencingToken()));
		assertThat(candidate.events.poll(200, TimeUnit.MILLISECONDS)).as("a second event").isNull();
	}

	@Test
	void candidatesLeadOneAtATimeWithAGreaterTokenEachTerm() throws Exception {
		List<Candidate> candidates = new ArrayList<>();
		ZooKeeperLockRegistry registry = registry();
		candidates.add(candidate(registry, "cache-warmer"));
		for (int i = 1; i < 3; i++) {
			candidates.add(candidate(registry(), "cache-warmer"));
		}
		await().atMost(AWAIT).until(() -> registry.queueOf("cache-warmer").size() == 3);
		long lastToken = 0;
		List<Candidate> leaders = new ArrayList<>();
		for (int term = 0; term < 9; term++) {
			Candidate leader = await().atMost(AWAIT)
				.until(() -> candidates.stream().filter((c) -> c.election.isLeader()).findFirst().orElse(null),
						(found) -> found != null);
			LeaderTerm granted = leader.granted();
			assertThat(granted.fencingToken()).as("token of term %d", term).isGreaterThan(lastToken);
			lastToken = granted.fencingToken();
			leaders.add(leader);
			assertThat(leader.election.yieldLeadership()).isTrue();
			assertThat(leader.revoked()).contains("yielded");
		}
		assertThat(this.mostLeading).as("leaders at once").hasValue(1);
		assertThat(leaders).as("every candidate led, the yielding one queued behind the others")
			.containsAll(candidates);
		assertThat(leaders.subList(0, 3)).doesNotHaveDuplicates();
	}

	@Test
	void aYieldingLeaderHandsOverAndJoinsAgain() throws Exception {
		ZooKeeperLockRegistry registry = registry();
		Candidate first = candidate(registry, "reports");
		LeaderTerm firstTerm = first.granted();
		Candidate second = candidate(registry(), "reports");
		// queued before the leader yields, or it could queue behind the leader joining
		// again
		await().atMost(AWAIT).until(() -> registry.queueOf("reports").size() == 2);
		assertThat(second.events).as("granted while another leads").isEmpty();
		assertThat(first.election.yieldLeadership()).isTrue();
		assertThat(first.revoked()).contains("yielded");
		assertThat(firstTerm.isValid()).isFalse();
		assertThat(second.granted().fencingToken()).isGreaterThan(firstTerm.fencingToken());
		assertThat(first.election.yieldLeadership()).as("yield of a candidate that does not lead").isFalse();
		second.election.close();
		assertThat(second.revoked()).contains("closed");
		assertThat(first.granted().fencingToken()).isGreaterThan(firstTerm.fencingToken());
	}

	@Test
	void anEndedSessionRevokesTheTermAndAnotherCandidateTakesOver() throws Exception {
		CuratorFramework client = this.zookeeper.newClient();
		Candidate first = candidate(new ZooKeeperLockRegistry(client, "/locks"), "billing");
		LeaderTerm firstTerm = first.granted();
		ZooKeeperLockRegistry secondRegistry = registry();
		Candidate second = candidate(secondRegistry, "billing");
		// queued before the first candidate's session ends, or it could queue behind the
		// first candidate joining again
		await().atMost(AWAIT).until(() -> secondRegistry.queueOf("billing").size() == 2);
		client.getZookeeperClient().getZooKeeper().getTestable().injectSessionExpiration();
		assertThat(first.revoked()).contains("session");
		assertThat(firstTerm.isValid()).isFalse();
		LeaderTerm secondTerm = second.granted();
		assertThat(secondTerm.fencingToken()).isGreaterThan(firstTerm.fencingToken());
		second.election.close();
		assertThat(second.revoked()).contains("closed");
		assertThat(first.granted().fencingToken()).as("the first candidate's term after it joined again")
			.isGreaterThan(secondTerm.fencingToken());
	}

	@Test
	void aLeaderCutOffFromZooKeeperIsRevokedWithinTheSessionTimeoutWhateverTheLostLockPolicy() throws Exception {
		try (ReplyHoldingProxy proxy = ReplyHoldingProxy.start(this.zookeeper.connectString())) {
			CuratorFramework client = proxy.newClient();
			ZooKeeperLockRegistry registry = new ZooKeeperLockRegistry(client, "/locks",
					new LostLockPolicy(LostLockPolicy.Trigger.LOST, Set.of()));
			Candidate candidate = candidate(registry, "payments");
			LeaderTerm term = candidate.granted();
			long cut = System.nanoTime();
			proxy.holdReplies();
			assertThat(candidate.revoked()).contains("suspended");
			Duration revokedAfter = Duration.ofNanos(System.nanoTime() - cut);
			int sessionTimeout = client.getZookeeperClient().getLastNegotiatedSessionTimeoutMs();
			assertThat(revokedAfter).isLessThan(Duration.ofMillis(sessionTimeout));
			assertThat(term.isValid()).isFalse();
			proxy.releaseReplies();
			assertThat(candidate.granted().fencingToken()).as("the term after the connection came back")
				.isGreaterThan(term.fencingToken());
		}
	}

	@Test
	void aLeaderWhoseServerStopsIsRevokedAndLeadsAgainOnceTheServerIsBack() throws Exception {
		Candidate candidate = candidate(registry(), "settlements");
		LeaderTerm term = candidate.granted();
		this.zookeeper.stop();
		assertThat(candidate.revoked()).contains("suspended");
		assertThat(candidate.election.isLeader()).isFalse();
		this.zookeeper.restart();
		assertThat(candidate.granted().fencingToken()).isGreaterThan(term.fencingToken());
	}

	@Test
	void closingTheLeaderRevokesItsTermBeforeAnotherCandidateIsGranted() throws Exception {
		Candidate first = candidate(registry(), "mailer");
		LeaderTerm firstTerm = first.granted();
		Candidate second = candidate(registry(), "mailer");
		first.election.close();
		assertThat(first.revoked()).contains("closed");
		assertThat(first.election.isLeader()).isFalse();
		assertThat(second.granted().fencingToken()).isGreaterThan(firstTerm.fencingToken());
		assertThat(this.mostLeading).as("leaders at once").hasValue(1);
		assertThat(first.events.poll(200, TimeUnit.MILLISECONDS)).as("an event after the close").isNull();
	}

	@Test
	void aCloseBetweenTheAcquisitionAndTheGrantEndsTheTermUngrantedAndReleasesItsLock() throws Exception {
		BlockingQueue<Object> events = new LinkedBlockingQueue<>();
		LeaderElection election = new LeaderElection(registry(), "ledger", new Recorder(events));
		this.elections.add(election);
		CompletableFuture<Void> closed = new CompletableFuture<>();
		AtomicLong acquiredToken = new AtomicLong();
		election.beforeGranting(() -> {
			acquiredToken.set(election.currentTerm().fencingToken());
			// the application shuts down once the lock is acquired, before the grant
			Thread closer = new Thread(() -> {
				election.close();
				closed.complete(null);
			}, "closer");
			closer.start();
			await().atMost(AWAIT).until(election::isClosed);
		});
		election.start();
		assertThatNoException().as("close() returned")
			.isThrownBy(() -> closed.get(AWAIT.toMillis(), TimeUnit.MILLISECONDS));
		assertThat(events).as("neither granted nor revoked").isEmpty();
		assertThat(election.currentTerm()).isNull();
		Candidate next = candidate(registry(), "ledger");
		assertThat(next.granted().fencingToken()).as("the next candidate's term, once the lock was released")
			.isGreaterThan(acquiredToken.get());
	}

	@Test
	void closingAWaitingCandidateEndsItsWaitWithoutAGrant() throws Exception {
		ZooKeeperLockRegistry registry = registry();
		Candidate first = candidate(registry, "indexer");
		first.granted();
		Candidate second = candidate(registry(), "indexer");
		await().atMost(AWAIT).until(() -> registry.queueOf("indexer").size() == 2);
		long start = System.nanoTime();
		second.election.close();
		assertThat(Duration.ofNanos(System.nanoTime() - start)).isLessThan(Duration.ofSeconds(5));
		first.election.close();
		assertThat(first.revoked()).contains("closed");
		assertThat(second.events).isEmpty();
		assertThatIllegalStateException().isThrownBy(second.election::start).withMessageContaining("'indexer'");
	}

	@Test
	void aYieldingLeaderHoldsTheLockUntilItsRevokedCallbackReturned() throws Exception {
		ZooKeeperLockRegistry registry = registry();
		BlockingQueue<Boolean> heldWhenRevoked = new LinkedBlockingQueue<>();
		LeaderElection election = new LeaderElection(registry, "exports", new LeadershipListener() {

			@Override
			public void granted(LeaderTerm term) {
				election().yieldLeadership();
			}

			@Override
			public void revoked(LeaderTerm term, String reason) {
				heldWhenRevoked.add(registry.heldLocks().stream().anyMatch((held) -> held.key().equals("exports")));
			}

		});
		this.elections.add(election);
		election.start();
		for (int i = 0; i < 3; i++) {
			assertThat(heldWhenRevoked.poll(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).as("held in revocation %d", i)
				.isTrue();
		}
	}

	private LeaderElection election() {
		return this.elections.get(this.elections.size() - 1);
	}

	@Test
	void aGrantedCallbackThatThrowsEndsTheTerm() throws Exception {
		BlockingQueue<String> revocations = new LinkedBlockingQueue<>();
		AtomicInteger grants = new AtomicInteger();
		LeaderElection election = new LeaderElection(registry(), "failing", new LeadershipListener() {

			@Override
			public void granted(LeaderTerm term) {
				if (grants.incrementAndGet() == 1) {
					throw new IllegalStateException("cannot start the consumer");
				}
			}

			@Override
			public void revoked(LeaderTerm term, String reason) {
				revocations.add(reason);
			}

		});
		this.elections.add(election);
		election.start();
		assertThat(revocations.poll(AWAIT.toMillis(), TimeUnit.MILLISECONDS)).contains("cannot start the consumer");
		await().atMost(AWAIT).until(election::isLeader);
		assertThat(grants).hasValue(2);
	}

	@Test
	void theGuidesFeedIsConsumedByOneInstanceAtATimeAndHandedOver() throws Exception {
		try (FeedLeadership first = new FeedLeadership(registry());
				FeedLeadership second = new FeedLeadership(registry())) {
			await().atMost(AWAIT).until(() -> first.isConsuming() || second.isConsuming());
			FeedLeadership leader = first.isConsuming() ? first : second;
			FeedLeadership follower = (leader == first) ? second : first;
			assertThat(follower.isConsuming()).isFalse();
			leader.handOver();
			await().atMost(AWAIT).until(follower::isConsuming);
			assertThat(leader.log()).containsExactly(leader.log().get(0), "stopped");
			assertThat(follower.log()).singleElement().asString().startsWith("consuming with token ");
		}
	}

	@Test
	void badArgumentsAreNamed() throws Exception {
		ZooKeeperLockRegistry registry = registry();
		LeadershipListener listener = new Recorder(new LinkedBlockingQueue<>());
		assertThatIllegalArgumentException().isThrownBy(() -> new LeaderElection(null, "name", listener))
			.withMessageContaining("'registry'");
		assertThatIllegalArgumentException().isThrownBy(() -> new LeaderElection(registry, " ", listener))
			.withMessageContaining("Election name");
		assertThatIllegalArgumentException().isThrownBy(() -> new LeaderElection(registry, null, listener))
			.withMessageContaining("Election name");
		assertThatIllegalArgumentException().isThrownBy(() -> new LeaderElection(registry, "name", null))
			.withMessageContaining("'listener'");
	}

	@Test
	void anElectionOnLocksThatCannotTellTheirLossEndsAtItsFirstAcquisitionAndReleasesIt() throws Exception {
		ZooKeeperLockRegistry registry = registry();
		LockManager untold = new LockManager() {

			@Override
			public ReleasableLock acquire(String key, LockType type, int permits, Duration waitTime) {
				throw new UnsupportedOperationException();
			}

			@Override
			public ReleasableLock acquireDetached(String key, LockType type, int permits, Duration waitTime) {
				ReleasableLock lock = registry.acquireDetached(key, type, permits, waitTime);
				return new ReleasableLock() {

					@Override
					public String key() {
						return lock.key();
					}

					@Override
					public long fencingToken() {
						return lock.fencingToken();
					}

					@Override
					public boolean isValid() {
						return lock.isValid();
					}

					@Override
					public boolean isLost() {
						return lock.isLost();
					}

					@Override
					public @Nullable String getLossReason() {
						return lock.getLossReason();
					}

					@Override
					public void release() {
						lock.release();
					}

					@Override
					public CompletionStage<@Nullable Void> releaseAfter(Duration delay) {
						return lock.releaseAfter(delay);
					}

				};
			}

			@Override
			public boolean raisesLossOnCompletion() {
				return false;
			}

		};
		BlockingQueue<Object> events = new LinkedBlockingQueue<>();
		LeaderElection election = new LeaderElection(untold, "reports", new Recorder(events));
		this.elections.add(election);
		election.start();
		await().atMost(AWAIT).untilAsserted(() -> assertThatIllegalStateException().isThrownBy(election::start));
		assertThat(events).as("terms granted").isEmpty();
		assertThat(election.isLeader()).isFalse();
		assertThat(registry.heldLocks()).as("the election's lock, released").isEmpty();
	}

	private ZooKeeperLockRegistry registry() throws InterruptedException {
		return new ZooKeeperLockRegistry(this.zookeeper.newClient(), "/locks");
	}

	private Candidate candidate(ZooKeeperLockRegistry registry, String name) {
		BlockingQueue<Object> events = new LinkedBlockingQueue<>();
		LeaderElection election = new LeaderElection(registry, name, new Recorder(events));
		this.elections.add(election);
		election.start();
		return new Candidate(election, events);
	}

	/** A candidate's election and what its listener heard, in order. */
	private record Candidate(LeaderElection election, BlockingQueue<Object> events) {

		LeaderTerm granted() throws InterruptedException {
			Object event = this.events.poll(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(event).as("the next event of %s", this.election).isInstanceOf(LeaderTerm.class);
			return (LeaderTerm) event;
		}

		String revoked() throws InterruptedException {
			Object event = this.events.poll(AWAIT.toMillis(), TimeUnit.MILLISECONDS);
			assertThat(event).as("the next event of %s", this.election).isInstanceOf(String.class);
			return (String) event;
		}

	}

	/** Records grants as their terms and revocations as their reasons. */
	private final class Recorder implements LeadershipListener {

		private final BlockingQueue<Object> events;

		Recorder(BlockingQueue<Object> events) {
			this.events = events;
		}

		@Override
		public void granted(LeaderTerm term) {
			LeaderElectionTests.this.mostLeading.accumulateAndGet(LeaderElectionTests.this.leading.incrementAndGet(),
					Math::max);
			this.events.add(term);
		}

		@Override
		public void revoked(LeaderTerm term, String reason) {
			LeaderElectionTests.this.leading.decrementAndGet();
			this.events.add(reason);
		}

	}

}
