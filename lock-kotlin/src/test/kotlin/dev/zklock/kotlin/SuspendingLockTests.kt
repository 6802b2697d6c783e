package dev.zklock.kotlin

import dev.zklock.DistributedLock
import dev.zklock.LockTimeoutException
import dev.zklock.ReactiveLockContext
import dev.zklock.testsupport.ZooKeeperTestServer
import dev.zklock.zookeeper.ZooKeeperLockRegistry
import java.time.Duration
import java.util.concurrent.CopyOnWriteArrayList
import java.util.concurrent.atomic.AtomicInteger
import kotlinx.coroutines.CompletableDeferred
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.async
import kotlinx.coroutines.awaitAll
import kotlinx.coroutines.awaitCancellation
import kotlinx.coroutines.cancelAndJoin
import kotlinx.coroutines.delay
import kotlinx.coroutines.launch
import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.withContext
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.awaitility.Awaitility.await
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.boot.test.context.assertj.AssertableApplicationContext

/**
 * `@DistributedLock` on Kotlin suspend functions, in a real Spring context on a real
 * ZooKeeper server: the lock is held across every suspension point and thread switch of
 * the call, waited for without blocking the caller's thread, and released when the call
 * returns, throws or is cancelled.
 */
class SuspendingLockTests {

	companion object {

		@RegisterExtension
		@JvmField
		val zookeeper = ZooKeeperTestServer()

		lateinit var other: OtherProcess

		@BeforeAll
		@JvmStatic
		fun connectOtherProcess() {
			other = OtherProcess(zookeeper)
		}

	}

	private val contextRunner = lockApplications(zookeeper)
		.withBean(TestCarrier::class.java)
		.withBean(Shipping::class.java)
		.withBean(Dispatch::class.java)
		.withBean(Warehouse::class.java)
		.withBean(Labelling::class.java)

	private fun inApplication(test: (AssertableApplicationContext) -> Unit) {
		contextRunner.run(test)
	}

	private fun AssertableApplicationContext.carrier() = getBean(TestCarrier::class.java)

	private fun AssertableApplicationContext.shipping() = getBean(Shipping::class.java)

	@Test
	fun `the lock is held across the call's suspension points and thread switches until it returns`() =
		inApplication { context ->
			val booked = CompletableDeferred<Long>()
			val resume = CompletableDeferred<Unit>()
			context.carrier().booking = { orderId, token ->
				booked.complete(token)
				resume.await()
				withContext(Dispatchers.Default) { yield() }
				"label:$orderId"
			}
			runBlocking {
				val call = async(Dispatchers.Default) { context.shipping().ship("1") }
				booked.await()
				assertThat(other.holds("order:1")).`as`("held while the call is suspended on another thread").isTrue()
				resume.complete(Unit)
				assertThat(call.await()).isEqualTo("label:1")
			}
			await().atMost(Duration.ofSeconds(10)).until { !other.holds("order:1") }
		}

	@Test
	fun `calls of one key never overlap, whatever threads they resume on`() = inApplication { context ->
		val active = AtomicInteger()
		val overlaps = AtomicInteger()
		context.carrier().booking = { orderId, _ ->
			if (active.incrementAndGet() > 1) {
				overlaps.incrementAndGet()
			}
			delay(5)
			withContext(Dispatchers.Default) { yield() }
			active.decrementAndGet()
			"label:$orderId"
		}
		runBlocking(Dispatchers.Default) {
			val labels = (1..4).map { async { context.shipping().ship("2") } }.awaitAll()
			assertThat(labels).containsOnly("label:2")
		}
		assertThat(overlaps.get()).isZero()
	}

	@Test
	fun `waiting for the lock blocks no thread of the caller`() = inApplication { context ->
		val elsewhere = other.acquire("order:3")
		runBlocking {
			// runBlocking has one thread: it must stay free while the call waits
			val call = async { context.shipping().ship("3") }
			val meanwhile = async { "meanwhile" }
			assertThat(meanwhile.await()).isEqualTo("meanwhile")
			assertThat(call.isActive).`as`("still waiting for the lock").isTrue()
			elsewhere.release()
			assertThat(call.await()).isEqualTo("label:3")
		}
	}

	@Test
	fun `an exception of the call reaches the caller unchanged, after the release`() = inApplication { context ->
		val failure = IllegalStateException("carrier down")
		context.carrier().booking = { _, _ ->
			delay(1)
			throw failure
		}
		// The coroutine's exception, or the copy that kotlinx-coroutines' stack trace recovery makes of it
		assertThatExceptionOfType(IllegalStateException::class.java)
			.isThrownBy { runBlocking { context.shipping().ship("4") } }
			.satisfies({ ex -> assertThat(ex === failure || ex.cause === failure).isTrue() })
		await().atMost(Duration.ofSeconds(10)).until { !other.holds("order:4") }
	}

	@Test
	fun `cancelling the caller releases the lock`() = inApplication { context ->
		val booked = CompletableDeferred<Unit>()
		context.carrier().booking = { _, _ ->
			booked.complete(Unit)
			awaitCancellation()
		}
		runBlocking {
			val call = launch(Dispatchers.Default) { context.shipping().ship("5") }
			booked.await()
			assertThat(other.holds("order:5")).isTrue()
			call.cancelAndJoin()
		}
		await().atMost(Duration.ofSeconds(10)).until { !other.holds("order:5") }
	}

	@Test
	fun `cancelling a caller that waits ends its wait, and its code never runs`() = inApplication { context ->
		val booked = CopyOnWriteArrayList<String>()
		context.carrier().booking = { orderId, _ -> booked.add(orderId).let { "label:$orderId" } }
		val registry = context.getBean(ZooKeeperLockRegistry::class.java)
		val elsewhere = other.acquire("order:6")
		runBlocking {
			val call = launch(Dispatchers.Default) { context.shipping().ship("6") }
			await().atMost(Duration.ofSeconds(10)).until { registry.waitingLocks().isNotEmpty() }
			call.cancelAndJoin()
		}
		await().atMost(Duration.ofSeconds(10)).until { registry.waitingLocks().isEmpty() }
		elsewhere.release()
		await().atMost(Duration.ofSeconds(10)).until { !other.holds("order:6") }
		assertThat(registry.heldLocks()).isEmpty()
		assertThat(booked).isEmpty()
	}

	@Test
	fun `the call finds its lock in its coroutine's Reactor context`() = inApplication { context ->
		context.carrier().booking = { orderId, token ->
			val lock = ReactiveLockContext.currentLock().awaitSingle()
			check(lock.fencingToken() == token && lock.isValid)
			lock.key()
		}
		assertThat(runBlocking { context.shipping().ship("7") }).isEqualTo("order:7")
	}

	@Test
	fun `a nested locked call of the same key waits for the outer call, until its wait time ends`() =
		inApplication { context ->
			val warehouse = context.getBean(Warehouse::class.java)
			assertThat(runBlocking { warehouse.restock("8") }).isEqualTo("restocked 8, then not dispatched: LockTimeoutException")
			await().atMost(Duration.ofSeconds(10)).until { !other.holds("order:8") }
		}

	@Test
	fun `a nested locked call of another key holds both locks`() = inApplication { context ->
		val labelling = context.getBean(Labelling::class.java)
		assertThat(runBlocking { labelling.relabel("9") }).isEqualTo("relabelled 9 holding order:9 and label:9")
	}

	/** Locked calls that [Warehouse] nests in its own. */
	open class Dispatch {

		@DistributedLock(key = "'order:' + #orderId", waitTime = "200ms")
		open suspend fun dispatch(orderId: String): String {
			yield()
			return "dispatched $orderId"
		}

		@DistributedLock(key = "'label:' + #orderId")
		open suspend fun label(orderId: String): String {
			yield()
			return ReactiveLockContext.currentLock().awaitSingle().key()
		}

	}

	/** Locked calls that call [Dispatch]'s under their own lock, of the same key. */
	// tag::nested[]
	open class Warehouse(private val dispatch: Dispatch) {

		@DistributedLock(key = "'order:' + #orderId")
		open suspend fun restock(orderId: String): String {
			yield()
			return try {
				// The same key again: a new acquisition, which waits for this call's lock
				"restocked $orderId, then " + dispatch.dispatch(orderId)
			}
			catch (ex: LockTimeoutException) {
				"restocked $orderId, then not dispatched: " + ex.javaClass.simpleName
			}
		}

	}
	// end::nested[]

	/** Locked calls that call [Dispatch]'s under their own lock, of another key. */
	open class Labelling(private val dispatch: Dispatch) {

		@DistributedLock(key = "'order:' + #orderId")
		open suspend fun relabel(orderId: String): String {
			val outer = ReactiveLockContext.currentLock().awaitSingle()
			val inner = dispatch.label(orderId)
			check(outer.isValid)
			return "relabelled $orderId holding ${outer.key()} and $inner"
		}

	}

}
