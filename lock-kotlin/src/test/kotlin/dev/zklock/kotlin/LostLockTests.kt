package dev.zklock.kotlin

import dev.zklock.LockHandle
import dev.zklock.LockLostException
import dev.zklock.LockTemplate
import dev.zklock.ReactiveLockContext
import dev.zklock.testsupport.ZooKeeperTestServer
import dev.zklock.zookeeper.ZooKeeperLockRegistry
import java.time.Duration
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.currentCoroutineContext
import kotlinx.coroutines.isActive
import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import org.apache.curator.framework.CuratorFramework
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.boot.test.context.assertj.AssertableApplicationContext

/**
 * What a coroutine learns when its lock is lost (here its ZooKeeper session expires while
 * it is suspended): its handle turns invalid at once, the coroutine is neither cancelled
 * nor interrupted (no thread holds its lock, whatever the lost-lock policy's actions), and
 * the call ends with [LockLostException] once the coroutine has returned, as asynchronous
 * results do.
 */
class LostLockTests {

	@RegisterExtension
	@JvmField
	val zookeeper = ZooKeeperTestServer()

	@Test
	fun `a locked suspend function whose lock is lost ends with LockLostException after it returns`() {
		lostWhileSuspended()
	}

	@Test
	fun `the interrupt action of the lost-lock policy does not reach a suspend function`() {
		lostWhileSuspended("distributed-lock.lost-lock.actions=interrupt,raise")
	}

	private fun lostWhileSuspended(vararg properties: String) {
		lockApplications(zookeeper).withPropertyValues(*properties)
			.withBean(TestCarrier::class.java)
			.withBean(Shipping::class.java)
			.run { context -> lostWhileSuspended(context) }
	}

	private fun lostWhileSuspended(context: AssertableApplicationContext) {
		val booked = CompletableDeferred<Unit>()
		val resume = CompletableDeferred<Unit>()
		val seen = CompletableDeferred<String>()
		context.getBean(TestCarrier::class.java).booking = { orderId, _ ->
			booked.complete(Unit)
			resume.await()
			val lock = ReactiveLockContext.currentLock().awaitSingle()
			seen.complete("valid=${lock.isValid}, active=${currentCoroutineContext().isActive}, " +
					"interrupted=${Thread.currentThread().isInterrupted}")
			"label:$orderId"
		}
		runBlocking {
			val call = async(Dispatchers.Default) { runCatching { context.getBean(Shipping::class.java).ship("1") } }
			booked.await()
			loseSession(context.getBean(CuratorFramework::class.java))
			resume.complete(Unit)
			assertThat(seen.await()).isEqualTo("valid=false, active=true, interrupted=false")
			assertThat(call.await().exceptionOrNull()).isInstanceOf(LockLostException::class.java)
				.hasMessageContaining("'order:1'")
		}
	}

	@Test
	fun `withLock whose lock is lost throws LockLostException after its block returns`() = runBlocking<Unit> {
		val client = zookeeper.newClient()
		val lockTemplate = LockTemplate(ZooKeeperLockRegistry(client, "/locks"), Duration.ofSeconds(5))
		var handle: LockHandle? = null
		assertThatExceptionOfType(LockLostException::class.java).isThrownBy {
			runBlocking {
				lockTemplate.withLock<String>("order:2", Duration.ofSeconds(5)) { lock ->
					handle = lock
					withContext(Dispatchers.IO) { loseSession(client) }
					check(!lock.isValid)
					"returned"
				}
			}
		}
		assertThat(handle?.isValid).isFalse()
	}

}
