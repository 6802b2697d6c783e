package dev.zklock.kotlin

import dev.zklock.DistributedLock
import dev.zklock.ReactiveLockContext
import kotlinx.coroutines.Dispatchers
import kotlinx.coroutines.reactor.awaitSingle
import kotlinx.coroutines.withContext

/**
 * Books a shipment with a carrier that takes a fencing token: the guide's sample of a
 * locked suspend function, run by [SuspendingLockTests].
 */
// tag::suspend-fun[]
open class Shipping(private val carrier: Carrier) {

	@DistributedLock(key = "'order:' + #orderId", waitTime = "30s")
	open suspend fun ship(orderId: String): String {
		// The lock of this call, held across every suspension point and thread switch below
		val lock = ReactiveLockContext.currentLock().awaitSingle()
		return withContext(Dispatchers.IO) {
			carrier.book(orderId, lock.fencingToken())
		}
	}

}
// end::suspend-fun[]

/** What [Shipping] books with; tests decide what booking does. */
fun interface Carrier {

	/** Books the shipment of [orderId], writing with [fencingToken]; returns its label. */
	suspend fun book(orderId: String, fencingToken: Long): String

}

/** A [Carrier] whose bookings a test replaces, labelling each order by default. */
class TestCarrier : Carrier {

	/** What a booking does. */
	@Volatile
	var booking: suspend (String, Long) -> String = { orderId, _ -> "label:$orderId" }

	override suspend fun book(orderId: String, fencingToken: Long): String = booking(orderId, fencingToken)

}
