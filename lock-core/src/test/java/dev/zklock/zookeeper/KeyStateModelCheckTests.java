package dev.zklock.zookeeper;

import java.util.Queue;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Function;

import dev.zklock.zookeeper.KeyStateModel.Acquisition;
import org.jetbrains.lincheck.Lincheck;
import org.jspecify.annotations.Nullable;
import org.junit.jupiter.api.Disabled;
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
 */
class KeyStateModelCheckTests {

	private static final int INVOCATIONS = 600;

	@Test
	void ownerWaiterSchedulerAndEventsKeepTheInvariantsThroughDoubtAndInterrupt() {
		Lincheck.runConcurrentTest(INVOCATIONS,
				() -> ownerAgainstWaiterAndEvents(new Run<>(LockKeyState::new, true), Waiter.INTERRUPTED, Event.DOUBT));
	}

	@Test
	void ownerWaiterSchedulerAndEventsKeepTheInvariantsThroughLossAndTimeOut() {
		Lincheck.runConcurrentTest(INVOCATIONS,
				() -> ownerAgainstWaiterAndEvents(new Run<>(LockKeyState::new, true), Waiter.TIMES_OUT, Event.LOSS));
	}

	@Test
	void ownerWaiterAndSchedulerKeepTheInvariants() {
		Lincheck.runConcurrentTest(INVOCATIONS, () -> ownerAgainstWaiter(new Run<>(LockKeyState::new, false)));
	}

	/**
	 * Section 1's race of issue 25 (a delayed release against a re-entry), to be found in
	 * the former key state by the three threads of {@link #ownerAgainstWaiter}. Not found
	 * yet: Lincheck 3.7 did not drive the owner and the scheduler into the failing
	 * interleaving within 5,000 invocations (about 40 s), nor the owner and the scheduler
	 * alone within 40,000 (about 4 minutes); {@link LockHoldModelCheckTests} finds it on
	 * the hold's counts alone.
	 */
	@Test
	@Disabled("Lincheck does not find the race over the whole former key state within CI's time")
	void checkerFindsTheRaceOfTheOldKeyState() {
		assertThatExceptionOfType(AssertionError.class).isThrownBy(
				() -> Lincheck.runConcurrentTest(5_000, () -> ownerAgainstWaiter(new Run<>(OldKeyState::new, false))))
			.satisfies((failure) -> System.out.println("Lincheck on the old key state: " + failure.getMessage()));
	}

	/**
	 * The owner T1 (acquire, re-enter, release the re-entry after a delay, release,
	 * acquire again, release), the scheduler S that ends the delayed release, and a
	 * waiter T2 (acquire, waiting, and release).
	 */
	private static <H> void ownerAgainstWaiter(Run<H> run) {
		Thread scheduler = new Thread(() -> run.scheduler());
		Thread waiter = new Thread(() -> run.waiter(Waiter.WAITS));
		Thread owner = new Thread(() -> run.owner(() -> {
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
		Thread owner = new Thread(() -> run.owner(() -> {
		}));
		Thread waiter = new Thread(() -> run.waiter(waiting));
		Thread events = new Thread(() -> {
			run.otherProcessReleases();
			run.raise(event);
			if (waiting == Waiter.INTERRUPTED) {
				waiter.interrupt();
			}
		});
		Thread scheduler = new Thread(() -> run.scheduler());
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

		private final SimulatedLockQueue queue = new SimulatedLockQueue();

		private final KeyStateModel<H> model;

		/**
		 * The other process's node, ahead of every node of this process, or {@code null}
		 * for none.
		 */
		private final @Nullable LockNode otherProcessNode;

		/** The holds begun and not yet given up by their last acquisition. */
		private final AtomicInteger holders = new AtomicInteger();

		private final Queue<Book<H>> books = new ConcurrentLinkedQueue<>();

		private volatile long lastToken = -1;

		private volatile @Nullable Book<H> latest;

		/** The acquisition whose release the owner delayed; guarded by this run. */
		private @Nullable Book<H> delayed;

		/**
		 * Whether the owner scheduled its delayed release, or will not; guarded by this
		 * run.
		 */
		private boolean scheduled;

		Run(Function<SimulatedLockQueue, KeyStateModel<H>> models, boolean otherProcessFirst) {
			this.otherProcessNode = otherProcessFirst ? this.queue.create() : null;
			if (otherProcessFirst) {
				this.holders.incrementAndGet();
			}
			this.model = models.apply(this.queue);
		}

		/**
		 * T1: acquires, re-enters with a delayed release, releases, and acquires and
		 * releases again; runs the given step once the delayed release is scheduled.
		 */
		void owner(Runnable afterDelayedRelease) {
			Owner<H> owner = new Owner<>();
			if (!acquire(owner, true)) {
				schedule(null);
				afterDelayedRelease.run();
				return;
			}
			if (acquire(owner, true)) {
				releaseLater(owner);
			}
			else {
				schedule(null);
			}
			afterDelayedRelease.run();
			release(owner);
			if (acquire(owner, true)) {
				release(owner);
			}
		}

		/**
		 * T2: acquires as told, and releases if it acquired.
		 */
		void waiter(Waiter waiting) {
			Owner<H> waiter = new Owner<>();
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
				acquired = this.model.acquire(wait);
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
			if (book == null) {
				return;
			}
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

		void join(Thread... threads) {
			try {
				for (Thread thread : threads) {
					thread.join();
				}
			}
			catch (InterruptedException ex) {
				throw new IllegalStateException(ex);
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

		private @Nullable Book<H> book;

		private int own;

	}

	/**
	 * The waiter's acquisition was interrupted.
	 */
	private static final class WaitInterrupted extends RuntimeException {

	}

}
