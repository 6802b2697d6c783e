package dev.zklock.kotlin

import dev.zklock.LockAcquisitionException
import dev.zklock.LockHandle
import dev.zklock.LockRequest
import dev.zklock.LockTemplate
import dev.zklock.LockTimeoutException
import dev.zklock.LockType
import dev.zklock.MultiKeyLock
import dev.zklock.ReleasableLock
import dev.zklock.StaleFencingTokenException
import dev.zklock.observation.LockObservationContext
import dev.zklock.testsupport.ZooKeeperTestServer
import dev.zklock.zookeeper.LockActivity
import dev.zklock.zookeeper.ZooKeeperLockRegistry
import java.time.Duration
import java.util.concurrent.CompletableFuture
import java.util.concurrent.TimeUnit
import kotlinx.coroutines.future.await
import kotlinx.coroutines.runBlocking
import org.assertj.core.api.Assertions.assertThat
import org.junit.jupiter.api.Test
import org.junit.jupiter.api.extension.RegisterExtension

/**
 * The nullability of lock-core's API as Kotlin sees it through its JSpecify annotations.
 * This code compiles only while they are right: a non-null result is used without `!!`
 * (an error if it were nullable), and a nullable one through `?:` or `?.` (a warning if
 * it were not nullable, which the module's `-Werror` makes an error). The tests then run
 * it, so that what the annotations promise is also what the calls return.
 */
class NullabilityTests {

	@RegisterExtension
	@JvmField
	val zookeeper = ZooKeeperTestServer()

	private fun registry() = ZooKeeperLockRegistry(zookeeper.newClient(), "/locks")

	@Test
	fun `the template's results are as nullable as its callbacks'`() {
		val lockTemplate = LockTemplate(registry(), Duration.ofSeconds(5))
		val key: String = lockTemplate.execute("nullability:1") { lock -> lock.key() }
		val nothing: String? = lockTemplate.execute("nullability:1", Duration.ofSeconds(5)) { null }
		val current: String = lockTemplate.execute(LockRequest.exclusive("nullability:1")) { LockHandle.current().key() }
		val later: String? = lockTemplate.executeAsync(LockRequest.exclusive("nullability:1")) {
			CompletableFuture.completedFuture<String?>(null)
		}.get(10, TimeUnit.SECONDS)
		val keys: String = lockTemplate.execute(listOf("nullability:2", "nullability:3"), LockType.EXCLUSIVE,
				Duration.ofSeconds(5)) { lock -> (lock as MultiKeyLock).locks().joinToString { it.key() } }
		assertThat(listOf(key, nothing ?: "null", current, later ?: "null", keys))
			.containsExactly("nullability:1", "null", "nullability:1", "null", "nullability:2, nullability:3")
		val registry: String = lockTemplate.observationRegistry.toString()
		assertThat(registry).isNotEmpty()
	}

	@Test
	fun `a request's wait time and name are nullable, its key and type are not`() {
		val request = LockRequest(LockRequest.read("catalog").key(), LockType.READ, 1, null, Duration.ZERO, null)
		val key: String = request.key()
		val type: LockType = request.type()
		val holdAtLeast: Duration = request.holdAtLeast()
		assertThat(request.waitTime() ?: Duration.ofSeconds(1)).isEqualTo(Duration.ofSeconds(1))
		assertThat(request.name() ?: LockRequest.UNNAMED).isEqualTo(LockRequest.UNNAMED)
		assertThat(request.withName("catalog.read").name()?.length).isEqualTo(12)
		assertThat(listOf(key, type.name, holdAtLeast.toString())).containsExactly("catalog", "READ", "PT0S")
	}

	@Test
	fun `a lock's loss reason and its delayed release's value are nullable`() {
		val lock: ReleasableLock = registry().acquire("nullability:4", Duration.ofSeconds(5))
		val key: String = lock.key()
		assertThat(lock.lossReason ?: "not lost").isEqualTo("not lost")
		val released = runBlocking { lock.releaseAfter(Duration.ZERO).await() }
		assertThat(released ?: "released").isEqualTo("released")
		assertThat(key).isEqualTo("nullability:4")
	}

	@Test
	fun `the exceptions' optional details are nullable, their keys are not`() {
		val timeout = LockTimeoutException("nullability:5", Duration.ofSeconds(1), null)
		val key: String = timeout.key
		val waitTime: Duration = timeout.waitTime
		assertThat(timeout.holder ?: "unknown").isEqualTo("unknown")
		val failed = LockAcquisitionException("nullability:5", "no connection", null)
		val failedKey: String = failed.key
		val stale = StaleFencingTokenException("nullability:5", 7)
		assertThat(stale.newerFencingToken.isPresent).isFalse()
		assertThat(listOf(key, waitTime.toString(), failedKey)).containsExactly("nullability:5", "PT1S", "nullability:5")
	}

	@Test
	fun `an observation's outcome and an activity's thread and token are nullable`() {
		val context = LockObservationContext("name", LockType.EXCLUSIVE, "nullability:6")
		val name: String = context.lockName
		assertThat(context.outcome?.value() ?: "none").isEqualTo("none")
		val activity = LockActivity("nullability:6", "exclusive", 1, java.time.Instant.EPOCH, null, null)
		assertThat(activity.thread() ?: "no thread").isEqualTo("no thread")
		assertThat(activity.fencingToken() ?: -1L).isEqualTo(-1L)
		assertThat(name).isEqualTo("name")
	}

}
