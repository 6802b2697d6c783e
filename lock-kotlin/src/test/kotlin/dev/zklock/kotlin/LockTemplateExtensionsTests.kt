package dev.zklock.kotlin

import dev.zklock.LockTemplate
import dev.zklock.testsupport.ZooKeeperTestServer
import dev.zklock.zookeeper.ZooKeeperLockRegistry
import java.time.Duration
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.TimeoutCancellationException
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.launch
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.withTimeout
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension

class LockTemplateExtensionsTests {

	@RegisterExtension
	@JvmField
	val zookeeper = ZooKeeperTestServer()

	private fun template(): LockTemplate =
		LockTemplate(ZooKeeperLockRegistry(zookeeper.newClient(), "/locks"), Duration.ofSeconds(5))

	@Test
	fun `a second client waits for the first coroutine's release`() = runBlocking<Unit> {
		val first = template()
		val second = template()
		val held = CompletableDeferred<Unit>()
		val release = CompletableDeferred<Unit>()
		val holder = launch(Dispatchers.Default) {
			first.withLock("order:1", Duration.ofSeconds(5)) {
				held.complete(Unit)
				release.await()
			}
		}
		held.await()
		val waiter = async(Dispatchers.Default) {
			second.withLock("order:1", Duration.ofSeconds(30)) { "second" }
		}
		yield()
		assertThat(waiter.isCompleted).isFalse()
		release.complete(Unit)
		assertThat(waiter.await()).isEqualTo("second")
		holder.join()
	}

	@Test
	fun `the handle is in the coroutine's context across thread switches`() = runBlocking<Unit> {
		val lockTemplate = template()
		// tag::with-lock[]
		val result = lockTemplate.withLock("order:2", Duration.ofSeconds(5)) { lock ->
			withContext(Dispatchers.IO) {
				// Another thread, the same call: the lock is still held, and in the context
				check(currentLockHandle() === lock && lock.isValid)
				lock.key()
			}
		}
		// end::with-lock[]
		assertThat(result).isEqualTo("order:2")
		assertThat(currentLockHandle()).isNull()
	}

	@Test
	fun `cancelling the holder releases the lock`() = runBlocking<Unit> {
		val first = template()
		val held = CompletableDeferred<Unit>()
		val holder = launch(Dispatchers.Default) {
			first.withLock("order:3", Duration.ofSeconds(5)) {
				held.complete(Unit)
				awaitCancellation()
			}
		}
		held.await()
		holder.cancelAndJoin()
		assertThat(template().withLock("order:3", Duration.ofSeconds(10)) { "taken" }).isEqualTo("taken")
	}

	@Test
	fun `withTimeout ends the wait, and the waiter holds nothing afterwards`() = runBlocking<Unit> {
		val first = template()
		val held = CompletableDeferred<Unit>()
		val release = CompletableDeferred<Unit>()
		val holder = launch(Dispatchers.Default) {
			first.withLock("order:4", Duration.ofSeconds(5)) {
				held.complete(Unit)
				release.await()
			}
		}
		held.await()
		val second = template()
		assertThatExceptionOfType(TimeoutCancellationException::class.java).isThrownBy {
			runBlocking {
				withTimeout(300) { second.withLock<String>("order:4", Duration.ofSeconds(60)) { "never" } }
			}
		}
		release.complete(Unit)
		holder.join()
		assertThat(second.withLock("order:4", Duration.ofSeconds(10)) { "taken" }).isEqualTo("taken")
	}

	@Test
	fun `a nested withLock of the same key waits for itself until its wait time ends`() = runBlocking<Unit> {
		val lockTemplate = template()
		assertThatExceptionOfType(dev.zklock.LockTimeoutException::class.java).isThrownBy {
			runBlocking {
				lockTemplate.withLock("order:5", Duration.ofSeconds(5)) {
					lockTemplate.withLock<String>("order:5", Duration.ofMillis(200)) { "nested" }
				}
			}
		}
		assertThat(lockTemplate.withLock("order:5", Duration.ofSeconds(10)) { "after" }).isEqualTo("after")
	}

}
