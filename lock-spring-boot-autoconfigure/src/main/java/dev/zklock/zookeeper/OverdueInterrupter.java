package dev.zklock.zookeeper;

import java.util.concurrent.ScheduledFuture;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.ReentrantLock;

/**
 * Interrupts a thread whose ZooKeeper operations outlive a deadline. Curator retries an
 * operation that lost its connection for as long as its retry policy and connection
 * timeout allow, which can be far longer than a lock's wait time; interrupting the thread
 * is the one way to stop it that Curator cleans up after (a lock node whose create was
 * interrupted is found and deleted in the background, and so is one whose guaranteed
 * delete was).
 */
final class OverdueInterrupter {

	private final ScheduledExecutorService scheduler;

	/**
	 * Creates an interrupter.
	 * @param scheduler runs the interrupts; owned by the caller
	 */
	OverdueInterrupter(ScheduledExecutorService scheduler) {
		this.scheduler = scheduler;
	}

	/**
	 * Starts watching the calling thread: unless {@link Watch#end()} is called first, the
	 * thread is interrupted at the deadline.
	 * @param deadlineNanos the deadline, on the {@link System#nanoTime()} scale
	 * @return the watch, to be ended by the calling thread
	 */
	Watch watch(long deadlineNanos) {
		Watch watch = new Watch(Thread.currentThread());
		watch.task = this.scheduler.schedule(watch::interruptIfWatching, deadlineNanos - System.nanoTime(),
				TimeUnit.NANOSECONDS);
		return watch;
	}

	/**
	 * One watched stretch of a thread's work.
	 */
	static final class Watch {

		private final ReentrantLock lock = new ReentrantLock();

		private final Thread thread;

		private volatile ScheduledFuture<?> task;

		private boolean ended;

		private boolean interrupted;

		private Watch(Thread thread) {
			this.thread = thread;
		}

		private void interruptIfWatching() {
			this.lock.lock();
			try {
				if (!this.ended) {
					this.ended = true;
					this.interrupted = true;
					this.thread.interrupt();
				}
			}
			finally {
				this.lock.unlock();
			}
		}

		/**
		 * Stops watching. Call once, from the watched thread.
		 * @return whether the thread was interrupted for passing the deadline; its
		 * interrupt flag is then cleared, since the interrupt came from the watch
		 */
		boolean end() {
			this.lock.lock();
			try {
				if (!this.ended) {
					this.ended = true;
					this.task.cancel(false);
					return false;
				}
				Thread.interrupted();
				return this.interrupted;
			}
			finally {
				this.lock.unlock();
			}
		}

	}

}
