package dev.zklock.zookeeper;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Consumer;

import dev.zklock.LockException;
import org.jspecify.annotations.Nullable;

/**
 * A key's state for the model checker as the registry drives it: one {@link LockKey},
 * driven by the registry's own {@link LockKeyDriver}, with the simulated queue in place
 * of the {@link LockQueue} and counts of doubts and pauses, with the holds registered, in
 * place of the {@link LockLossDetector}. The client stays connected in one session;
 * doubts and losses are raised on every hold registered at the time, as the detector
 * raises them.
 */
final class DriverKeyState implements KeyStateModel<LockKey.Hold> {

	private final SimulatedLockQueue queue;

	private final LockKey lockKey;

	private final LockKeyDriver driver;

	/**
	 * The holds registered with the detector, as {@link LockLossDetector#holds()}: a
	 * list, whose order Lincheck can replay, where the detector keeps a set.
	 */
	private final List<LockKey.Hold> registered = new CopyOnWriteArrayList<>();

	private final AtomicLong doubts = new AtomicLong();

	private final AtomicLong pauses = new AtomicLong();

	DriverKeyState(SimulatedLockQueue queue, HandOffPolicy policy) {
		this.queue = queue;
		this.lockKey = new LockKey("k", policy);
		this.driver = new LockKeyDriver(new Queue(), new Detector());
	}

	@Override
	public @Nullable Acquisition<LockKey.Hold> acquire(Thread owner, LockNodeKind kind, boolean wait)
			throws InterruptedException {
		long waitNanos = wait ? KeyStateModel.WAIT_NANOS : 0;
		try {
			LockKey.Hold current = this.driver.reenter(this.lockKey, kind, owner);
			if (current != null) {
				return new Acquisition<>(current, current.fencingToken(), true);
			}
			LockKey.Hold hold = this.driver.take(this.lockKey, kind, Duration.ofNanos(waitNanos),
					System.nanoTime() + waitNanos, owner);
			return new Acquisition<>(hold, hold.fencingToken(), false);
		}
		catch (LockException ex) {
			return null;
		}
		catch (InterruptedException ex) {
			throw ex;
		}
		catch (Exception ex) {
			throw new AssertionError("The driver failed", ex);
		}
	}

	@Override
	public boolean release(LockKey.Hold hold) {
		return this.driver.release(this.lockKey, hold) == LockKey.Change.ENDED;
	}

	@Override
	public void releaseLater(LockKey.Hold hold) {
		this.driver.delayRelease(this.lockKey, hold);
	}

	@Override
	public boolean releaseDelayed(LockKey.Hold hold) {
		return this.driver.endDelayedRelease(this.lockKey, hold, () -> {
		}) == LockKey.Change.ENDED;
	}

	/**
	 * A pause of the process that may have outlasted the session: a doubt, counted as a
	 * pause too, raised on every hold registered, as
	 * {@link LockLossDetector#pauseDetected} raises it.
	 */
	@Override
	public void doubt() {
		this.pauses.incrementAndGet();
		this.doubts.incrementAndGet();
		this.registered.forEach(LockKey.Hold::markUncertain);
	}

	/**
	 * ZooKeeper answers that the session lasted: each hold uncertain when it was asked
	 * becomes certain in the doubt generation it had then.
	 */
	@Override
	public void confirm() {
		List<LockKey.Hold> uncertain = new ArrayList<>();
		List<Long> generations = new ArrayList<>();
		for (LockKey.Hold hold : this.registered) {
			if (hold.isUncertain()) {
				uncertain.add(hold);
				generations.add(hold.doubtGeneration());
			}
		}
		for (int i = 0; i < uncertain.size(); i++) {
			uncertain.get(i).markCertain(generations.get(i));
		}
	}

	@Override
	public void lose() {
		this.doubts.incrementAndGet();
		this.registered.forEach((hold) -> hold.markLost("lost in the model"));
	}

	@Override
	public int acquisitions(LockKey.Hold hold) {
		return hold.acquisitions();
	}

	/** The simulated queue, as the driver's ZooKeeper side. */
	private final class Queue implements LockKeyDriver.Queue {

		@Override
		public LockKey.@Nullable Turn take(String key, LockNodeKind kind, @Nullable Thread owner, Duration waitTime,
				long deadline) throws InterruptedException {
			long checkedAt = DriverKeyState.this.pauses.get();
			LockNode node = DriverKeyState.this.queue.create(kind);
			boolean turnCame = false;
			try {
				turnCame = DriverKeyState.this.queue.awaitTurn(node, deadline - System.nanoTime() > 0);
				return turnCame ? new LockKey.Turn(node, 0, checkedAt) : null;
			}
			finally {
				if (!turnCame) {
					DriverKeyState.this.queue.delete(node);
				}
			}
		}

		@Override
		public void watchBehind(String key, LockNode held, Consumer<Boolean> othersQueued) {
			DriverKeyState.this.queue.watchBehind(held, othersQueued);
		}

		@Override
		public void release(String key, LockNode node) {
			DriverKeyState.this.queue.delete(node);
		}

		@Override
		public void abandon(String key, LockNode node) {
			DriverKeyState.this.queue.delete(node);
		}

		@Override
		public @Nullable String describeHead(String key, long deadline) {
			return null;
		}

	}

	/** The counts and the holds registered, as the driver's loss detector. */
	private final class Detector implements LockKeyDriver.Detector {

		@Override
		public void register(LockKey.Hold hold) {
			DriverKeyState.this.registered.add(hold);
		}

		@Override
		public void unregister(LockKey.Hold hold) {
			DriverKeyState.this.registered.remove(hold);
		}

		/**
		 * As {@link LockLossDetector#isHeld} answers while connected in the hold's
		 * session.
		 */
		@Override
		public boolean isHeld(LockKey.Hold hold) {
			return hold.lossReason() == null && !hold.isUncertain();
		}

		@Override
		public long doubts() {
			return DriverKeyState.this.doubts.get();
		}

		@Override
		public boolean undoubtedSince(long doubts) {
			return DriverKeyState.this.doubts.get() == doubts;
		}

		@Override
		public boolean unpausedSince(long pauses) {
			return DriverKeyState.this.pauses.get() == pauses;
		}

		@Override
		public long currentSessionId() {
			return 1;
		}

	}

}
