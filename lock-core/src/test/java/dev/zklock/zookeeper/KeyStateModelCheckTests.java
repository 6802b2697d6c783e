package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.zookeeper.KeyStateModel.Acquisition;
import org.jetbrains.lincheck.Lincheck;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every interleaving of one key's in-process state, explored by Lincheck's model checker
 * over a {@link KeyStateModel}: the registry's own {@link LockKeyDriver} driving a
 * {@link LockKey} ({@link DriverKeyState}), with ZooKeeper played by a
 * {@link SimulatedLockQueue}. Owner threads acquire the key's exclusive lock, read lock
 * or semaphore permits, re-enter, release now or after a delay (hold-at-least) that a
 * scheduler thread ends later, and acquire again; waiters wait, are interrupted or time
 * out; an event thread lets another process's node go and raises a doubt (then
 * ZooKeeper's confirmation) or a loss on every hold registered at that moment, begun or
 * still checking its turn; a ZooKeeper thread answers who queues behind a held node, and
 * fires the answer's watch when a node queues later. Hand-offs run within their bounds
 * (which never pass under the checker's frozen clock) or past them from the start (a node
 * passes on only once ZooKeeper answered that nobody queues behind it).
 * <p>
 * Checked inside each interleaving: an exclusive hold begins only while no other hold
 * does (another process's included), a read hold only while no exclusive hold does, and
 * no more permits than the semaphore has are held at once, each counted as holds begin
 * and as their last acquisition is released; an exclusive hold's fencing token is greater
 * than every token before it, and a read hold's than every exclusive token before it;
 * every hold ends exactly once; a thread re-enters only a hold it still holds itself; no
 * count goes negative, and every node is deleted at the end. Every thread finishing is
 * checked by Lincheck itself: a thread left waiting while the key is free to it is
 * reported as a hang.
 * <p>
 * Two ways in which Lincheck 3.7 checks less than it seems to, both avoided here: it
 * reports only what the checked block's own thread throws (a check failed on a thread
 * that the block started is kept by the {@link Run} and thrown when the block joins the
 * thread), and it does not follow objects created inside a lambda or method reference
 * that it did not instrument (the key state is created by {@link Run}'s factories; made
 * by a method reference, its accesses were no switch points, and the race of
 * {@link #checkerFindsTheRaceOfTheOldKeyState} was never found).
 * <p>
 * Several minutes on two cores: tagged {@code model-check}, it runs with the fault suite
 * ({@code -Pfault-suite}), which CI runs.
 */
@Tag("model-check")
class KeyStateModelCheckTests {

	private static final int INVOCATIONS = 400;

	private static final int RACE_INVOCATIONS = 500;

	/** Hand-offs within bounds, which never pass under the frozen clock. */
	private static final HandOffPolicy WITHIN_BOUNDS = new HandOffPolicy(true, 64, Duration.ofMinutes(1));

	/**
	 * Hand-off bounds passed from the start: a node passes on only once ZooKeeper
	 * answered that nobody queues behind it.
	 */
	private static final HandOffPolicy BOUNDS_PASSED = new HandOffPolicy(true, 64, Duration.ZERO);

	private static final LockNodeKind TWO_PERMITS = LockNodeKind.permit(2);

	@Test
	void ownerWaiterSchedulerAndEventsKeepTheInvariantsThroughDoubtAndInterrupt() {
		Lincheck.runConcurrentTest(INVOCATIONS,
				() -> ownerAgainstWaiterAndEvents(Run.ofDriver(WITHIN_BOUNDS, true), Waiter.INTERRUPTED, Event.DOUBT));
	}

	@Test
	void ownerWaiterSchedulerAndEventsKeepTheInvariantsThroughLossAndTimeOut() {
		Lincheck.runConcurrentTest(INVOCATIONS,
				() -> ownerAgainstWaiterAndEvents(Run.ofDriver(WITHIN_BOUNDS, true), Waiter.TIMES_OUT, Event.LOSS));
	}

	@Test
	void ownerSchedulerAndWaiterKeepTheInvariantsAroundADelayedRelease() {
		Lincheck.runConcurrentTest(RACE_INVOCATIONS,
				() -> schedulerAgainstOwnerAndWaiter(Run.ofDriver(WITHIN_BOUNDS, false)));
	}

	@Test
	void ownerWaiterAndSchedulerKeepTheInvariants() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> ownerAgainstWaiter(Run.ofDriver(WITHIN_BOUNDS, false)));
	}

	/**
	 * A delayed release of the owner's outermost acquisition: the owner leaves its hold
	 * at once, so its next acquisition queues like any other thread's, behind the hold
	 * that the scheduler ends later, and never re-enters it.
	 */
	@Test
	void ownerThatDelaysItsOutermostReleaseQueuesAgainBehindIt() {
		Lincheck.runConcurrentTest(INVOCATIONS,
				() -> outermostDelayedAgainstWaiter(Run.ofDriver(WITHIN_BOUNDS, false)));
	}

	/**
	 * A turn handed to one of two waiters while the event thread interrupts the first:
	 * the interrupted waiter keeps a turn it was given (it holds, interrupted), or leaves
	 * its place without one, and either way the node reaches the other waiter or
	 * ZooKeeper.
	 */
	@Test
	void interruptedWaiterAmongTwoNeverStrandsTheNode() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> ownerAgainstTwoWaiters(Run.ofDriver(WITHIN_BOUNDS, false)));
	}

	/**
	 * Readers of one process, one re-entering its read lock, and a writer, while a doubt
	 * and then ZooKeeper's confirmation reach every hold registered: readers share a
	 * node, the writer waits for all of them.
	 */
	@Test
	void readersAndAWriterKeepTheInvariantsThroughDoubtAndConfirmation() {
		Lincheck.runConcurrentTest(INVOCATIONS,
				() -> readersAndWriter(Run.ofDriver(WITHIN_BOUNDS, false), Event.DOUBT));
	}

	/**
	 * Readers and a writer with the hand-off bounds passed: a reader joins the held read
	 * node only once ZooKeeper answered that nobody queues behind it, and otherwise leads
	 * a read node of its own behind whatever queued meanwhile, the writer's too; no
	 * reader ever waits for a reader of its own process.
	 */
	@Test
	void readersPastTheHandOffBoundsJoinOnlyWhileNobodyQueuesBehind() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> readersAndWriter(Run.ofDriver(BOUNDS_PASSED, false), Event.LOSS));
	}

	/**
	 * Three threads of a semaphore of two permits, each its own node, while a loss
	 * reaches every hold registered.
	 */
	@Test
	void semaphorePermitsAreNeverHeldBeyondTheirNumber() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> permitHolders(Run.ofDriver(WITHIN_BOUNDS, false)));
	}

	/**
	 * Section 1's race of issue 25 (a delayed release against a re-entry), found in the
	 * former key state by the scenario of
	 * {@link #ownerSchedulerAndWaiterKeepTheInvariantsAroundADelayedRelease}: the owner
	 * releases between the two steps of the scheduler's delayed release, stays mapped to
	 * its hold, and re-enters it after the hold was given up.
	 */
	@Test
	void checkerFindsTheRaceOfTheOldKeyState() {
		assertThatExceptionOfType(AssertionError.class)
			.isThrownBy(() -> Lincheck.runConcurrentTest(RACE_INVOCATIONS,
					() -> schedulerAgainstOwnerAndWaiter(Run.ofOldKeyState())))
			.withMessageContaining("which it had left or never held")
			.satisfies((failure) -> System.out.println("Lincheck on the old key state: " + failure.getMessage()));
	}

	/**
	 * The owner's first steps (acquire, re-enter, release the re-entry after a delay) run
	 * alone on the checked block's own thread, which then acts as the scheduler S and
	 * ends the delayed release, while a thread T1 acting for the same owner releases and
	 * acquires again, and a waiter T2 tries the key once without waiting. The owner's
	 * first steps run before the other threads start, so that the model checker spends
	 * its switches on the race between S and T1.
	 */
	private static <H> void schedulerAgainstOwnerAndWaiter(Run<H> run) {
		Owner<H> owner = run.ownerEntersAndDelaysARelease();
		Thread ownerThread = run.thread(() -> run.ownerReleasesAndAcquiresAgain(owner));
		Thread waiter = run.thread(() -> run.waiter(Waiter.TIMES_OUT));
		ownerThread.start();
		waiter.start();
		run.scheduler();
		run.join(ownerThread, waiter);
		run.finish();
	}

	/**
	 * The owner T1 (acquire, re-enter, release the re-entry after a delay, release,
	 * acquire again, release), the scheduler S that ends the delayed release, and a
	 * waiter T2 (acquire, waiting, and release).
	 */
	private static <H> void ownerAgainstWaiter(Run<H> run) {
		Thread scheduler = run.thread(run::scheduler);
		Thread waiter = run.thread(() -> run.waiter(Waiter.WAITS));
		Thread owner = run.thread(() -> run.owner(() -> {
			scheduler.start();
			waiter.start();
		}));
		owner.start();
		run.join(owner, scheduler, waiter);
		run.finish();
	}

	/**
	 * The threads of {@link #ownerAgainstWaiter}, behind another process's node that the
	 * event thread deletes (the node's turn), and that then raises an event on every hold
	 * registered and interrupts the waiter.
	 */
	private static <H> void ownerAgainstWaiterAndEvents(Run<H> run, Waiter waiting, Event event) {
		Thread owner = run.thread(() -> run.owner(() -> {
		}));
		Thread waiter = run.thread(() -> run.waiter(waiting));
		Thread events = run.thread(() -> {
			run.otherProcessReleases();
			run.raise(event);
			if (waiting == Waiter.INTERRUPTED) {
				waiter.interrupt();
			}
		});
		Thread scheduler = run.thread(run::scheduler);
		owner.start();
		scheduler.start();
		waiter.start();
		events.start();
		run.join(owner, scheduler, waiter, events);
		run.finish();
	}

	/**
	 * The owner T1 acquires and releases its outermost acquisition after a delay, then
	 * acquires and releases again; the scheduler S ends the delayed release; a waiter T2
	 * acquires, waiting, and releases.
	 */
	private static <H> void outermostDelayedAgainstWaiter(Run<H> run) {
		Thread scheduler = run.thread(run::scheduler);
		Thread waiter = run.thread(() -> run.waiter(Waiter.WAITS));
		Thread owner = run.thread(() -> {
			Owner<H> self = new Owner<>(Thread.currentThread(), LockNodeKind.EXCLUSIVE);
			if (run.acquire(self, true)) {
				run.releaseLater(self);
			}
			else {
				run.schedule(null);
			}
			scheduler.start();
			waiter.start();
			if (run.acquire(self, true)) {
				run.release(self);
			}
		});
		owner.start();
		run.join(owner, scheduler, waiter);
		run.finish();
	}

	/**
	 * The owner holds the key from the start, on the checked block's thread; two waiters
	 * wait for it, the event thread interrupts the first of them, and the owner releases:
	 * the node passes to a waiter that still waits, or to ZooKeeper.
	 */
	private static <H> void ownerAgainstTwoWaiters(Run<H> run) {
		Owner<H> owner = new Owner<>(Thread.currentThread(), LockNodeKind.EXCLUSIVE);
		run.acquire(owner, true);
		Thread first = run.thread(() -> run.waiter(Waiter.INTERRUPTED));
		Thread second = run.thread(() -> run.waiter(Waiter.WAITS));
		Thread events = run.thread(first::interrupt);
		first.start();
		second.start();
		events.start();
		run.release(owner);
		run.join(first, second, events);
		run.finish();
	}

	/**
	 * Reader R1 (acquire, re-enter, release both, acquire again, release), reader R2 and
	 * writer W (acquire, waiting, and release), and the event thread, which raises the
	 * event on every hold registered and, after a doubt, ZooKeeper's confirmation.
	 */
	private static <H> void readersAndWriter(Run<H> run, Event event) {
		Thread first = run.thread(() -> {
			Owner<H> reader = new Owner<>(Thread.currentThread(), LockNodeKind.SHARED);
			if (run.acquire(reader, true)) {
				if (run.acquire(reader, true)) {
					run.release(reader);
				}
				run.release(reader);
			}
			if (run.acquire(reader, true)) {
				run.release(reader);
			}
		});
		Thread second = run.thread(() -> run.acquireAndRelease(LockNodeKind.SHARED));
		Thread writer = run.thread(() -> run.acquireAndRelease(LockNodeKind.EXCLUSIVE));
		Thread events = run.thread(() -> {
			run.raise(event);
			if (event == Event.DOUBT) {
				run.confirm();
			}
		});
		first.start();
		second.start();
		writer.start();
		events.start();
		run.join(first, second, writer, events);
		run.finish();
	}

	/**
	 * Three threads that each acquire one of two permits, waiting, and release it, and
	 * the event thread that declares every hold registered lost.
	 */
	private static <H> void permitHolders(Run<H> run) {
		Thread first = run.thread(() -> run.acquireAndRelease(TWO_PERMITS));
		Thread second = run.thread(() -> run.acquireAndRelease(TWO_PERMITS));
		Thread third = run.thread(() -> run.acquireAndRelease(TWO_PERMITS));
		Thread events = run.thread(() -> run.raise(Event.LOSS));
		first.start();
		second.start();
		third.start();
		events.start();
		run.join(first, second, third, events);
		run.finish();
	}

	/**
	 * Fails the explored interleaving unless the condition holds: plain, because the
	 * model checker follows every call made inside it.
	 */
	private static void check(boolean condition, String failure) {
		if (!condition) {
			throw new AssertionError(failure);
		}
	}

	/**
	 * How a waiter waits.
	 */
	private enum Waiter {

		/**
		 * It waits until its turn comes.
		 */
		WAITS,

		/**
		 * It waits until its turn comes or the event thread interrupts it.
		 */
		INTERRUPTED,

		/**
		 * It times out where it would have to wait.
		 */
		TIMES_OUT

	}

	/**
	 * What the event thread raises on every hold registered.
	 */
	private enum Event {

		/**
		 * A doubt (a pause of the process).
		 */
		DOUBT,

		/**
		 * A loss.
		 */
		LOSS

	}

	/**
	 * One explored run: the key state under test, the simulated queue and the thread that
	 * answers for ZooKeeper, and what the checks count.
	 */
	private static final class Run<H> {

		private final SimulatedLockQueue queue;

		private final KeyStateModel<H> model;

		/**
		 * The other process's node, ahead of every node of this process, or {@code null}
		 * for none.
		 */
		private final @Nullable LockNode otherProcessNode;

		/**
		 * The thread that answers who queues behind a node, or {@code null} where nobody
		 * asks.
		 */
		private final @Nullable Thread zooKeeper;

		/** The exclusive holds begun and not yet given up by their last acquisition. */
		private final AtomicInteger exclusiveHolders = new AtomicInteger();

		/** The read holds begun and not yet given up by their last acquisition. */
		private final AtomicInteger sharedHolders = new AtomicInteger();

		/** The permits held, counted as the holds of the other kinds are. */
		private final AtomicInteger permitHolders = new AtomicInteger();

		private final Queue<Book<H>> books = new ConcurrentLinkedQueue<>();

		/** The first check that failed on a thread of this run. */
		private final AtomicReference<@Nullable AssertionError> failure = new AtomicReference<>();

		/** The greatest fencing token of an exclusive or read hold begun so far. */
		private volatile long lastToken = -1;

		/** The greatest fencing token of an exclusive hold begun so far. */
		private volatile long lastExclusiveToken = -1;

		/** The acquisition whose release the owner delayed; guarded by this run. */
		private @Nullable Book<H> delayed;

		/**
		 * Whether the owner scheduled its delayed release, or will not; guarded by this
		 * run.
		 */
		private boolean scheduled;

		private Run(SimulatedLockQueue queue, KeyStateModel<H> model, boolean otherProcessFirst,
				boolean answersWatches) {
			this.queue = queue;
			this.otherProcessNode = otherProcessFirst ? queue.create(LockNodeKind.EXCLUSIVE) : null;
			if (otherProcessFirst) {
				this.exclusiveHolders.incrementAndGet();
			}
			this.model = model;
			this.zooKeeper = answersWatches ? thread(queue::answerWatches) : null;
			if (this.zooKeeper != null) {
				this.zooKeeper.start();
			}
		}

		/**
		 * A run over the registry's driver of a {@link LockKey}. The key state is created
		 * here, in code that Lincheck instruments: created inside a method reference (a
		 * hidden class, which Lincheck 3.7 does not instrument), its objects are not
		 * tracked, and the model checker switches threads at none of their accesses.
		 * @param policy the hand-off policy; where its bounds have passed, a thread
		 * answers for ZooKeeper who queues behind a node (within the bounds, the answer
		 * changes nothing, and leaving it unanswered spares the checker a thread)
		 * @param otherProcessFirst whether another process's node is ahead of every node
		 * of this process
		 * @return the run
		 */
		static Run<LockKey.Hold> ofDriver(HandOffPolicy policy, boolean otherProcessFirst) {
			SimulatedLockQueue queue = new SimulatedLockQueue();
			return new Run<>(queue, new DriverKeyState(queue, policy), otherProcessFirst, policy == BOUNDS_PASSED);
		}

		/**
		 * A run over the former key state, created as in {@link #ofDriver}, which never
		 * asks who queues behind.
		 * @return the run
		 */
		static Run<OldKeyState.Hold> ofOldKeyState() {
			SimulatedLockQueue queue = new SimulatedLockQueue();
			return new Run<>(queue, new OldKeyState(queue), false, false);
		}

		/**
		 * T1: acquires, re-enters with a delayed release, releases, and acquires and
		 * releases again; runs the given step once the delayed release is scheduled.
		 */
		void owner(Runnable afterDelayedRelease) {
			Owner<H> owner = ownerEntersAndDelaysARelease();
			afterDelayedRelease.run();
			ownerReleasesAndAcquiresAgain(owner);
		}

		/**
		 * T1's first steps, for the calling thread: acquires, and re-enters with a
		 * delayed release that the scheduler is told to end.
		 * @return the owner, as it knows itself after these steps
		 */
		Owner<H> ownerEntersAndDelaysARelease() {
			Owner<H> owner = new Owner<>(Thread.currentThread(), LockNodeKind.EXCLUSIVE);
			if (acquire(owner, true) && acquire(owner, true)) {
				releaseLater(owner);
			}
			else {
				schedule(null);
			}
			return owner;
		}

		/**
		 * T1's last steps, on any thread acting for the owner: releases, and acquires and
		 * releases again; nothing if its first acquisition failed.
		 */
		void ownerReleasesAndAcquiresAgain(Owner<H> owner) {
			if (owner.own == 0) {
				return;
			}
			release(owner);
			if (acquire(owner, true)) {
				release(owner);
			}
		}

		/**
		 * A waiter for the exclusive lock: acquires as told, and releases if it acquired.
		 */
		void waiter(Waiter waiting) {
			Owner<H> waiter = new Owner<>(Thread.currentThread(), LockNodeKind.EXCLUSIVE);
			try {
				if (acquire(waiter, waiting != Waiter.TIMES_OUT)) {
					release(waiter);
				}
			}
			catch (WaitInterrupted ex) {
				// the event thread interrupted the wait
			}
			Thread.interrupted();
		}

		/**
		 * Acquires a kind of lock for the calling thread, waiting, and releases it.
		 */
		void acquireAndRelease(LockNodeKind kind) {
			Owner<H> owner = new Owner<>(Thread.currentThread(), kind);
			if (acquire(owner, true)) {
				release(owner);
			}
		}

		/**
		 * The other process deletes its node: the turn of this process's first node
		 * comes.
		 */
		void otherProcessReleases() {
			LockNode other = this.otherProcessNode;
			if (other != null) {
				this.exclusiveHolders.decrementAndGet();
				this.queue.delete(other);
			}
		}

		void raise(Event event) {
			if (event == Event.DOUBT) {
				this.model.doubt();
			}
			else {
				this.model.lose();
			}
		}

		void confirm() {
			this.model.confirm();
		}

		private boolean acquire(Owner<H> owner, boolean wait) {
			Acquisition<H> acquired;
			try {
				acquired = this.model.acquire(owner.thread, owner.kind, wait);
			}
			catch (InterruptedException ex) {
				throw new WaitInterrupted();
			}
			if (acquired == null) {
				return false;
			}
			Book<H> book = owner.book;
			if (acquired.reentered()) {
				check(book != null && book.hold == acquired.hold() && owner.own > 0,
						"a thread re-entered the hold of token " + acquired.fencingToken()
								+ ", which it had left or never held");
				book.pending.incrementAndGet();
			}
			else {
				begin(owner.kind, acquired.fencingToken());
				book = new Book<>(acquired.hold(), acquired.fencingToken(), owner.kind);
				this.books.add(book);
				owner.book = book;
			}
			owner.own++;
			checkCounts(book);
			return true;
		}

		/**
		 * Counts a hold of a kind in as it begins, and checks that no hold it excludes is
		 * counted, and its fencing token.
		 */
		private void begin(LockNodeKind kind, long token) {
			if (kind instanceof LockNodeKind.Permit permit) {
				int held = this.permitHolders.incrementAndGet();
				check(held <= permit.permits(), held + " holds of " + permit + " at once");
				return;
			}
			if (kind == LockNodeKind.EXCLUSIVE) {
				check(this.exclusiveHolders.incrementAndGet() == 1 && this.sharedHolders.get() == 0,
						"the hold of token " + token + " began while another holder held the key");
				check(token > this.lastToken,
						"the exclusive hold of token " + token + " began after a hold of token " + this.lastToken);
				this.lastExclusiveToken = token;
			}
			else {
				this.sharedHolders.incrementAndGet();
				check(this.exclusiveHolders.get() == 0,
						"the read hold of token " + token + " began while an exclusive holder held the key");
				check(token > this.lastExclusiveToken, "the read hold of token " + token
						+ " began after an exclusive hold of token " + this.lastExclusiveToken);
			}
			this.lastToken = Math.max(this.lastToken, token);
		}

		private void release(Owner<H> owner) {
			Book<H> book = owner.book;
			owner.own--;
			leave(book);
			if (this.model.release(book.hold)) {
				book.ends.incrementAndGet();
			}
			checkCounts(book);
		}

		/**
		 * Releases one acquisition after a delay, and hands it to the scheduler's thread,
		 * which ends it.
		 */
		private void releaseLater(Owner<H> owner) {
			Book<H> book = owner.book;
			owner.own--;
			this.model.releaseLater(book.hold);
			checkCounts(book);
			schedule(book);
		}

		private synchronized void schedule(@Nullable Book<H> book) {
			this.delayed = book;
			this.scheduled = true;
			notifyAll();
		}

		/**
		 * S: ends the delayed release that the owner scheduled, if it scheduled one.
		 */
		void scheduler() {
			Book<H> book;
			synchronized (this) {
				while (!this.scheduled) {
					try {
						wait();
					}
					catch (InterruptedException ex) {
						throw new IllegalStateException(ex);
					}
				}
				book = this.delayed;
			}
			if (book != null) {
				endDelayedRelease(book);
			}
		}

		/**
		 * S's step: ends the delayed release of the hold.
		 */
		void endDelayedRelease(Book<H> book) {
			leave(book);
			if (this.model.releaseDelayed(book.hold)) {
				book.ends.incrementAndGet();
			}
			checkCounts(book);
		}

		/**
		 * Counts an acquisition of the hold as released, and the hold as given up once
		 * that was its last: before the release, so that no holder that follows can begin
		 * before it is counted out.
		 */
		private void leave(Book<H> book) {
			if (book.pending.decrementAndGet() == 0) {
				holdersOf(book.kind).decrementAndGet();
			}
		}

		private AtomicInteger holdersOf(LockNodeKind kind) {
			if (kind == LockNodeKind.EXCLUSIVE) {
				return this.exclusiveHolders;
			}
			return (kind == LockNodeKind.SHARED) ? this.sharedHolders : this.permitHolders;
		}

		private void checkCounts(Book<H> book) {
			int acquisitions = this.model.acquisitions(book.hold);
			check(acquisitions >= 0, "the hold of token " + book.token + " counts " + acquisitions + " acquisitions");
		}

		/**
		 * A thread of this run, whose failed check is kept for {@link #join}: Lincheck
		 * 3.7 reports only what the checked block's own thread throws, and lets a thread
		 * that it started die of an {@link AssertionError} unseen.
		 */
		Thread thread(Runnable body) {
			return new Thread(() -> {
				try {
					body.run();
				}
				catch (AssertionError ex) {
					this.failure.compareAndSet(null, ex);
				}
			});
		}

		/**
		 * Waits for the threads to finish, and fails as the first of them that failed.
		 */
		void join(Thread... threads) {
			try {
				for (Thread thread : threads) {
					thread.join();
				}
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
			}
			AssertionError failed = this.failure.get();
			if (failed != null) {
				throw failed;
			}
		}

		/**
		 * Checks, once every thread finished and ZooKeeper gave every answer it owed,
		 * that every hold ended exactly once with no acquisition left, and that every
		 * node was deleted.
		 */
		void finish() {
			this.queue.close();
			if (this.zooKeeper != null) {
				join(this.zooKeeper);
			}
			for (Book<H> book : this.books) {
				check(book.ends.get() == 1,
						"the hold of token " + book.token + " ended " + book.ends.get() + " times, not once");
				check(this.model.acquisitions(book.hold) == 0, "the hold of token " + book.token + " counts "
						+ this.model.acquisitions(book.hold) + " acquisitions after every release");
			}
			check(this.queue.size() == 0, this.queue.size() + " nodes are left in the queue");
		}

	}

	/**
	 * A hold as the checks see it: its kind, the acquisitions not released yet (delayed
	 * ones included), and how many releases reported that they ended it.
	 */
	private static final class Book<H> {

		private final H hold;

		private final long token;

		private final LockNodeKind kind;

		private final AtomicInteger pending = new AtomicInteger(1);

		private final AtomicInteger ends = new AtomicInteger();

		Book(H hold, long token, LockNodeKind kind) {
			this.hold = hold;
			this.token = token;
			this.kind = kind;
		}

	}

	/**
	 * What a thread holds, as it knows itself: the kind of lock it asks for, its latest
	 * hold, and its own acquisitions of it not released yet (delayed ones not included).
	 */
	private static final class Owner<H> {

		private final Thread thread;

		private final LockNodeKind kind;

		private @Nullable Book<H> book;

		private int own;

		Owner(Thread thread, LockNodeKind kind) {
			this.thread = thread;
			this.kind = kind;
		}

	}

	/**
	 * The waiter's acquisition was interrupted.
	 */
	private static final class WaitInterrupted extends RuntimeException {

	}

}
