package dev.zklock.zookeeper;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;

import dev.zklock.zookeeper.KeyStateModel.Acquisition;
import org.jetbrains.lincheck.Lincheck;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThatExceptionOfType;

/**
 * Every interleaving of one key's in-process state, explored by Lincheck's model checker
 * over a {@link KeyStateModel}: an owner thread acquires the key, re-enters it with a
 * delayed release (hold-at-least) that a scheduler thread ends later, releases and
 * acquires again; a second thread waits for the key and is interrupted or times out; an
 * event thread lets another process's node go (the node's turn in ZooKeeper) and raises a
 * doubt or declares the hold lost. ZooKeeper is the {@link SimulatedLockQueue}.
 * <p>
 * Checked inside each interleaving: at most one holder at any time (the other process's
 * included, counted as holds begin and as their last acquisition is released), every hold
 * ends exactly once, fencing tokens strictly increase in the order holds begin, a thread
 * re-enters only a hold it still holds itself, no count goes negative, and every node is
 * deleted at the end. Every thread finishing is checked by Lincheck itself: a thread left
 * waiting while the key is free to it is reported as a hang.
 * <p>
 * Two ways in which Lincheck 3.7 checks less than it seems to, both avoided here: it
 * reports only what the checked block's own thread throws (a check failed on a thread
 * that the block started is kept by the {@link Run} and thrown when the block joins the
 * thread), and it does not follow objects created inside a lambda or method reference
 * that it did not instrument (the key state is created by {@link Run}'s factories; made
 * by a method reference, its accesses were no switch points, and the race of
 * {@link #checkerFindsTheRaceOfTheOldKeyState} was never found).
 */
class KeyStateModelCheckTests {

	private static final int INVOCATIONS = 400;

	private static final int RACE_INVOCATIONS = 500;

	@Test
	void ownerWaiterSchedulerAndEventsKeepTheInvariantsThroughDoubtAndInterrupt() {
		Lincheck.runConcurrentTest(INVOCATIONS,
				() -> ownerAgainstWaiterAndEvents(Run.ofLockKey(true), Waiter.INTERRUPTED, Event.DOUBT));
	}

	@Test
	void ownerWaiterSchedulerAndEventsKeepTheInvariantsThroughLossAndTimeOut() {
		Lincheck.runConcurrentTest(INVOCATIONS,
				() -> ownerAgainstWaiterAndEvents(Run.ofLockKey(true), Waiter.TIMES_OUT, Event.LOSS));
	}

	@Test
	void ownerSchedulerAndWaiterKeepTheInvariantsAroundADelayedRelease() {
		Lincheck.runConcurrentTest(RACE_INVOCATIONS, () -> schedulerAgainstOwnerAndWaiter(Run.ofLockKey(false)));
	}

	@Test
	void ownerWaiterAndSchedulerKeepTheInvariants() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> ownerAgainstWaiter(Run.ofLockKey(false)));
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
					() -> schedulerAgainstOwnerAndWaiter(Run.ofOldKeyState(false))))
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
		Thread scheduler = run.thread(() -> run.scheduler());
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
	 * event thread deletes (the node's turn), and that then raises an event about the
	 * hold begun last and interrupts the waiter.
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
		Thread scheduler = run.thread(() -> run.scheduler());
		owner.start();
		scheduler.start();
		waiter.start();
		events.start();
		run.join(owner, scheduler, waiter, events);
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
	 * How the waiter T2 waits.
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
	 * What the event thread raises about the hold begun last.
	 */
	private enum Event {

		/**
		 * A doubt (a suspended connection, a pause).
		 */
		DOUBT,

		/**
		 * A loss.
		 */
		LOSS

	}

	/**
	 * One explored run: the key state under test, the simulated queue, and what the
	 * checks count.
	 */
	private static final class Run<H> {

		private final SimulatedLockQueue queue;

		private final KeyStateModel<H> model;

		/**
		 * The other process's node, ahead of every node of this process, or {@code null}
		 * for none.
		 */
		private final @Nullable LockNode otherProcessNode;

		/** The holds begun and not yet given up by their last acquisition. */
		private final AtomicInteger holders = new AtomicInteger();

		private final Queue<Book<H>> books = new ConcurrentLinkedQueue<>();

		/** The first check that failed on a thread of this run. */
		private final AtomicReference<@Nullable AssertionError> failure = new AtomicReference<>();

		private volatile long lastToken = -1;

		private volatile @Nullable Book<H> latest;

		/** The acquisition whose release the owner delayed; guarded by this run. */
		private @Nullable Book<H> delayed;

		/**
		 * Whether the owner scheduled its delayed release, or will not; guarded by this
		 * run.
		 */
		private boolean scheduled;

		private Run(SimulatedLockQueue queue, KeyStateModel<H> model, boolean otherProcessFirst) {
			this.queue = queue;
			this.otherProcessNode = otherProcessFirst ? queue.create() : null;
			if (otherProcessFirst) {
				this.holders.incrementAndGet();
			}
			this.model = model;
		}

		/**
		 * A run over the {@link LockKey}. The key state is created here, in code that
		 * Lincheck instruments: created inside a method reference (a hidden class, which
		 * Lincheck 3.7 does not instrument), its objects are not tracked, and the model
		 * checker switches threads at none of their accesses.
		 * @param otherProcessFirst whether another process's node is ahead of every node
		 * of this process
		 * @return the run
		 */
		static Run<LockKey.Hold> ofLockKey(boolean otherProcessFirst) {
			SimulatedLockQueue queue = new SimulatedLockQueue();
			return new Run<>(queue, new LockKeyState(queue), otherProcessFirst);
		}

		/**
		 * A run over the former key state, created as in {@link #ofLockKey}.
		 * @param otherProcessFirst whether another process's node is ahead of every node
		 * of this process
		 * @return the run
		 */
		static Run<OldKeyState.Hold> ofOldKeyState(boolean otherProcessFirst) {
			SimulatedLockQueue queue = new SimulatedLockQueue();
			return new Run<>(queue, new OldKeyState(queue), otherProcessFirst);
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
			Owner<H> owner = new Owner<>(Thread.currentThread());
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
		 * T2: acquires as told, and releases if it acquired.
		 */
		void waiter(Waiter waiting) {
			Owner<H> waiter = new Owner<>(Thread.currentThread());
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
		 * The other process deletes its node: the turn of this process's first node
		 * comes.
		 */
		void otherProcessReleases() {
			LockNode other = this.otherProcessNode;
			if (other != null) {
				this.holders.decrementAndGet();
				this.queue.delete(other);
			}
		}

		void raise(Event event) {
			Book<H> book = this.latest;
			if (book == null) {
				return;
			}
			if (event == Event.DOUBT) {
				this.model.doubt(book.hold);
			}
			else {
				this.model.lose(book.hold);
			}
		}

		private boolean acquire(Owner<H> owner, boolean wait) {
			Acquisition<H> acquired;
			try {
				acquired = this.model.acquire(owner.thread, wait);
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
				check(this.holders.incrementAndGet() == 1,
						"the hold of token " + acquired.fencingToken() + " began while another holder held the key");
				check(acquired.fencingToken() > this.lastToken, "the hold of token " + acquired.fencingToken()
						+ " began after a hold of token " + this.lastToken);
				this.lastToken = acquired.fencingToken();
				book = new Book<>(acquired.hold(), acquired.fencingToken());
				this.books.add(book);
				this.latest = book;
				owner.book = book;
			}
			owner.own++;
			checkCounts(book);
			return true;
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
				this.holders.decrementAndGet();
			}
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
		 * Checks, once every thread finished, that every hold ended exactly once with no
		 * acquisition left, and that every node was deleted.
		 */
		void finish() {
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
	 * A hold as the checks see it: the acquisitions not released yet (delayed ones
	 * included), and how many releases reported that they ended it.
	 */
	private static final class Book<H> {

		private final H hold;

		private final long token;

		private final AtomicInteger pending = new AtomicInteger(1);

		private final AtomicInteger ends = new AtomicInteger();

		Book(H hold, long token) {
			this.hold = hold;
			this.token = token;
		}

	}

	/**
	 * What a thread holds, as it knows itself: its latest hold, and its own acquisitions
	 * of it not released yet (delayed ones not included).
	 */
	private static final class Owner<H> {

		private final Thread thread;

		private @Nullable Book<H> book;

		private int own;

		Owner(Thread thread) {
			this.thread = thread;
		}

	}

	/**
	 * The waiter's acquisition was interrupted.
	 */
	private static final class WaitInterrupted extends RuntimeException {

	}

}
