package dev.zklock.kotlin

import dev.zklock.LockHandle
import dev.zklock.LockLostException
import dev.zklock.LockRequest
import dev.zklock.LockTemplate
import java.time.Duration
import java.util.concurrent.CompletableFuture
import kotlin.coroutines.AbstractCoroutineContextElement
import kotlin.coroutines.CoroutineContext
import kotlinx.coroutines.CoroutineScope
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.ensureActive
import kotlinx.coroutines.NonCancellable
import kotlinx.coroutines.future.await
import kotlinx.coroutines.runInterruptible
import kotlinx.coroutines.withContext

/**
 * Runs [block] under the exclusive lock of [key], waiting at most [waitTime] for it.
 *
 * The wait blocks a thread of [Dispatchers.IO], never the caller's, and is interrupted
 * when the calling coroutine is cancelled (by `withTimeout` too). The lock belongs to the
 * call, not to a thread: it is kept across every suspension point and thread switch of
 * [block], and released when [block] returns, throws or is cancelled. It is not
 * reentrant: a nested `withLock` of the same key waits for itself until its wait time
 * ends.
 *
 * @return what [block] returned, once the lock is released
 * @throws dev.zklock.LockTimeoutException if the lock was not acquired within the wait time
 * @throws LockLostException if the lock was lost while [block] ran and the lock manager
 * raises losses
 * @see LockTemplate.executeAsync
 */
suspend fun <T> LockTemplate.withLock(key: String, waitTime: Duration,
		block: suspend CoroutineScope.(LockHandle) -> T): T =
	withLock(LockRequest.exclusive(key).withWaitTime(waitTime), block)

/**
 * Runs [block] under the lock that [request] describes (a read, write, semaphore or
 * exclusive lock, its wait time, name and minimal hold), as [withLock] with a key does.
 *
 * @return what [block] returned, once the lock is released
 * @see LockTemplate.executeAsync
 */
suspend fun <T> LockTemplate.withLock(request: LockRequest,
		block: suspend CoroutineScope.(LockHandle) -> T): T {
	// Completed by this call, whatever happens: its completion releases the lock
	val work = CompletableFuture<T>()
	var handle: LockHandle? = null
	val released = try {
		runInterruptible(Dispatchers.IO) {
			executeAsync(request) { lock ->
				handle = lock
				work
			}
		}
	}
	catch (ex: Throwable) {
		// Cancelled while waiting, or just after the lock was taken: release what was taken
		work.completeExceptionally(ex)
		// An interrupted wait reads as the cancellation (or withTimeout) that interrupted it
		currentCoroutineContext().ensureActive()
		throw ex
	}
	val lock = checkNotNull(handle)
	try {
		work.complete(withContext(HeldLock(lock)) { block(lock) })
	}
	catch (ex: Throwable) {
		work.completeExceptionally(ex)
	}
	// The release completes this future; it is not interrupted by a late cancellation
	return withContext(NonCancellable) { released.await() }
}

/**
 * The lock that a [withLock] call holds, as an element of its coroutine's context.
 *
 * @property handle the held lock
 */
class HeldLock(val handle: LockHandle) : AbstractCoroutineContextElement(HeldLock) {

	/** The key of [HeldLock] in a coroutine's context. */
	companion object Key : CoroutineContext.Key<HeldLock>

	override fun toString(): String = "HeldLock(${handle.key()})"

}

/**
 * The lock held by the innermost [withLock] call around the calling coroutine, or `null`
 * outside one.
 */
suspend fun currentLockHandle(): LockHandle? = currentCoroutineContext()[HeldLock]?.handle
