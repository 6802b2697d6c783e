package dev.zklock;

import java.time.Duration;
import java.util.concurrent.CompletionStage;

import org.jspecify.annotations.Nullable;

/**
 * One acquisition of a lock by a {@link LockManager}, released once: what a
 * {@link LockTemplate} does with the lock besides handing it to its work.
 */
public interface ReleasableLock extends LockHandle {

	/**
	 * Whether the lock was declared lost during this hold. Unlike {@link #isValid()},
	 * this stays {@code false} while the hold is merely uncertain, and after a normal
	 * release.
	 * @return whether the lock was lost
	 */
	boolean isLost();

	/**
	 * Why the lock was declared lost.
	 * @return the reason, or {@code null} if it was not lost
	 * @see #isLost()
	 */
	@Nullable String getLossReason();

	/**
	 * Releases this acquisition, without waiting for the lock service to confirm it.
	 * Later calls do nothing, and so does a release after the lock was lost.
	 */
	void release();

	/**
	 * Releases this acquisition after a delay, on a background thread. Later calls of
	 * either release method do nothing.
	 * @param delay how long to keep the lock from now
	 * @return a stage that completes once the acquisition is released
	 * @throws IllegalArgumentException if the delay is {@code null} or negative; the
	 * acquisition is then still held, to be released again
	 */
	CompletionStage<@Nullable Void> releaseAfter(Duration delay);

}
