package dev.zklock.kotlin

import dev.zklock.DistributedLock
import dev.zklock.LockException
import dev.zklock.LockFailureHandler
import dev.zklock.LockTimeoutException
import dev.zklock.OnLockFailure
import dev.zklock.testsupport.ZooKeeperTestServer
import java.util.concurrent.CopyOnWriteArrayList
import kotlinx.coroutines.flow.Flow
import kotlinx.coroutines.flow.flow
import kotlinx.coroutines.flow.flowOf
import kotlinx.coroutines.flow.toList
import kotlinx.coroutines.runBlocking
import kotlinx.coroutines.yield
import org.assertj.core.api.Assertions.assertThat
import org.assertj.core.api.Assertions.assertThatExceptionOfType
import org.junit.jupiter.api.BeforeAll
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension
import org.springframework.boot.test.context.assertj.AssertableApplicationContext
import org.springframework.boot.test.context.runner.ApplicationContextRunner

/**
 * A locked suspend function whose lock is held elsewhere gets the response its annotation
 * chose, as a suspend function: the exception, `null`, a suspending fallback's result or a
 * failure handler's; and an annotation whose response cannot work for a suspend function,
 * or a suspend function that returns a `Flow`, fails start-up naming the function.
 */
class SuspendingLockFailureTests {

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

	private fun inApplication(runner: ApplicationContextRunner = contextRunner,
			test: (AssertableApplicationContext) -> Unit) {
		runner.run(test)
	}

	private fun AssertableApplicationContext.quotes() = getBean(Quotes::class.java)

	private val quoting = contextRunner.withBean(Quotes::class.java)
		.withBean("busyQuotes", LockFailureHandler::class.java, {
			LockFailureHandler { failure, _, arguments -> "handled ${arguments.toList()} after ${failure.javaClass.simpleName}" }
		})

	private fun whileHeldElsewhere(key: String, test: () -> Unit) {
		val elsewhere = other.acquire(key)
		try {
			test()
		}
		finally {
			elsewhere.release()
		}
	}

	@Test
	fun `by default the caller gets the lock exception`() = inApplication(quoting) { context ->
		whileHeldElsewhere("quote:1") {
			assertThatExceptionOfType(LockTimeoutException::class.java)
				.isThrownBy { runBlocking { context.quotes().quote("1") } }
				.withMessageContaining("'quote:1'")
		}
		assertThat(context.quotes().quoted).isEmpty()
	}

	@Test
	fun `a skipped call returns null, or returns at once from a Unit function`() = inApplication(quoting) { context ->
		whileHeldElsewhere("quote:2") {
			assertThat(runBlocking { context.quotes().quoteIfFree("2") }).isNull()
			runBlocking { context.quotes().refresh("2") }
		}
		assertThat(context.quotes().quoted).isEmpty()
	}

	@Test
	fun `a suspending fallback answers, with the lock exception when it takes it`() = inApplication(quoting) { context ->
		whileHeldElsewhere("quote:3") {
			assertThat(runBlocking { context.quotes().quoteOrCached("3") }).isEqualTo("cached quote 3")
			assertThat(runBlocking { context.quotes().quoteOrBusy("3") }).isEqualTo("busy: LockTimeoutException")
		}
		assertThat(context.quotes().quoted).isEmpty()
	}

	@Test
	fun `a failure handler gets the arguments without the continuation, and its value is the result`() =
		inApplication(quoting) { context ->
			whileHeldElsewhere("quote:4") {
				assertThat(runBlocking { context.quotes().quoteOrHandled("4") })
					.isEqualTo("handled [4] after LockTimeoutException")
			}
		}

	@Test
	fun `a free lock runs the function`() = inApplication(quoting) { context ->
		assertThat(runBlocking { context.quotes().quote("5") }).isEqualTo("quote 5")
		assertThat(runBlocking { context.quotes().quoteIfFree("5") }).isEqualTo("quote 5")
		assertThat(context.quotes().quoted).containsExactly("5", "5")
	}

	@Test
	fun `skipping a suspend function whose result is not nullable fails start-up`() =
		inApplication(contextRunner.withBean(NonNullSkip::class.java)) { context ->
			assertThat(context).hasFailed()
			assertThat(context.startupFailure).hasMessageContaining("NonNullSkip.price(String,Continuation)")
				.hasMessageContaining("is a suspend function whose result, a java.lang.String, is not nullable")
		}

	@Test
	fun `a fallback of a suspend function that does not suspend fails start-up`() =
		inApplication(contextRunner.withBean(PlainFallback::class.java)) { context ->
			assertThat(context).hasFailed()
			assertThat(context.startupFailure).hasMessageContaining("PlainFallback.price(String,Continuation)")
				.hasMessageContaining("has no suspend function cached(String) or cached(String, LockException)")
		}

	@Test
	fun `a suspend function that returns a Flow fails start-up`() =
		inApplication(contextRunner.withBean(SuspendingFlow::class.java)) { context ->
			assertThat(context).hasFailed()
			assertThat(context.startupFailure).hasMessageContaining("SuspendingFlow.prices(Continuation)")
				.hasMessageContaining("is a suspend function that returns a Flow")
		}

	@Test
	fun `a function that returns a Flow without suspending is locked while the Flow is collected`() =
		inApplication(contextRunner.withBean(CollectedFlow::class.java)) { context ->
			val prices = context.getBean(CollectedFlow::class.java)
			val flow = prices.prices()
			assertThat(other.holds("prices")).`as`("not locked before collection").isFalse()
			assertThat(runBlocking { flow.toList() }).containsExactly("1 held", "2 held")
		}

	/** Quotes prices under the lock of their SKU, answering otherwise as each annotation says. */
	open class Quotes {

		// Open, or the proxy's own, empty field would be read
		open val quoted = CopyOnWriteArrayList<String>()

		@DistributedLock(key = "'quote:' + #sku", waitTime = "0")
		open suspend fun quote(sku: String): String {
			yield()
			quoted.add(sku)
			return "quote $sku"
		}

		@DistributedLock(key = "'quote:' + #sku", waitTime = "0", onFailure = OnLockFailure.SKIP)
		open suspend fun quoteIfFree(sku: String): String? = quote(sku)

		@DistributedLock(key = "'quote:' + #sku", waitTime = "0", onFailure = OnLockFailure.SKIP)
		open suspend fun refresh(sku: String) {
			quote(sku)
		}

		// tag::fallback[]
		@DistributedLock(key = "'quote:' + #sku", waitTime = "0", fallback = "cachedQuote")
		open suspend fun quoteOrCached(sku: String): String = quote(sku)

		// A suspend function too, with the same parameters and result
		suspend fun cachedQuote(sku: String): String {
			yield()
			return "cached quote $sku"
		}
		// end::fallback[]

		@DistributedLock(key = "'quote:' + #sku", waitTime = "0", fallback = "busyQuote")
		open suspend fun quoteOrBusy(sku: String): String = quote(sku)

		suspend fun busyQuote(@Suppress("UNUSED_PARAMETER") sku: String, failure: LockException): String {
			yield()
			return "busy: " + failure.javaClass.simpleName
		}

		@DistributedLock(key = "'quote:' + #sku", waitTime = "0", failureHandler = "busyQuotes")
		open suspend fun quoteOrHandled(sku: String): String = quote(sku)

	}

	open class NonNullSkip {

		@DistributedLock(key = "'price:' + #sku", onFailure = OnLockFailure.SKIP)
		open suspend fun price(sku: String): String = sku

	}

	open class PlainFallback {

		@DistributedLock(key = "'price:' + #sku", fallback = "cached")
		open suspend fun price(sku: String): String = sku

		fun cached(sku: String): String = sku

	}

	open class SuspendingFlow {

		@DistributedLock(key = "'prices'")
		open suspend fun prices(): Flow<String> = flowOf("1")

	}

	open class CollectedFlow {

		@DistributedLock(key = "'prices'")
		open fun prices(): Flow<String> = flow {
			emit("1 " + held())
			yield()
			emit("2 " + held())
		}

		private fun held() = if (other.holds("prices")) "held" else "free"

	}

}
