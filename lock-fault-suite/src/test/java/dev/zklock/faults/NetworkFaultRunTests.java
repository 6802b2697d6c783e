package dev.zklock.faults;

import java.time.Duration;

import dev.zklock.testsupport.process.ZooKeeperEnsemble;

/**
 * Faults of the network, against an ensemble of three servers: every worker reaches every
 * server through a link of its own, and the servers each other through links too (see
 * {@link FaultRun} and {@link ZooKeeperEnsemble}); a fault cuts, slows down or breaks
 * some of them. Three workers of two threads each increment two counters in the fenced
 * store under locks, and after a quiet period the checker goes over everything they and
 * the store recorded.
 */
abstract class NetworkFaultRunTests extends FaultRunTests {

	/** Long enough for any fault here; the tests end stalls with {@code proceed}. */
	static final Duration STALL = Duration.ofMinutes(1);

	static final Duration TIMEOUT = Duration.ofSeconds(30);

	static final Duration QUIET = Duration.ofSeconds(6);

	NetworkFaultRunTests() {
		super("network-", 3);
	}

}
