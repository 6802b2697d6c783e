package dev.zklock.zookeeper;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalStateException;

/**
 * The bounds that fencing tokens rely on: the zxid epochs they hold and the hand-offs
 * they count.
 */
class FencingTokensTests {

	private static final long LAST_EPOCH = LockNode.EPOCH_LIMIT - 1;

	@Test
	void tokenIsTheCreationZxidFollowedByTheHandOffCount() {
		assertThat(LockNode.fencingTokenOf(0x1_0000_002AL, 0)).isEqualTo(0x1_0000_002AL << 12);
		assertThat(LockNode.fencingTokenOf(0x1_0000_002AL, 5)).isEqualTo((0x1_0000_002AL << 12) + 5);
	}

	@Test
	void everyHandOffOfANodeIsBelowEveryHoldOfALaterNode() {
		long lastOfEarlierNode = LockNode.fencingTokenOf(zxid(3, 41), LockNode.MAX_HAND_OFFS);
		assertThat(LockNode.fencingTokenOf(zxid(3, 42), 0)).isGreaterThan(lastOfEarlierNode);
		assertThat(LockNode.fencingTokenOf(zxid(4, 0), 0))
			.isGreaterThan(LockNode.fencingTokenOf(zxid(3, 0xFFFF_FFFFL), 4095));
	}

	@Test
	void zxidsOfTheLastEpochBelowTheLimitStayPositiveAndOrdered() {
		long highest = LockNode.fencingTokenOf(zxid(LAST_EPOCH, 0xFFFF_FFFFL), LockNode.MAX_HAND_OFFS);
		assertThat(highest).isEqualTo(Long.MAX_VALUE);
		assertThat(LockNode.fencingTokenOf(zxid(LAST_EPOCH, 1), 0)).isPositive()
			.isGreaterThan(LockNode.fencingTokenOf(zxid(LAST_EPOCH - 1, 0xFFFF_FFFFL), LockNode.MAX_HAND_OFFS));
	}

	@Test
	void zxidOfTheEpochLimitIsRefusedNamingTheEpoch() {
		assertThatIllegalStateException().isThrownBy(() -> LockNode.fencingTokenOf(zxid(LockNode.EPOCH_LIMIT, 1), 0))
			.withMessageContaining("epoch " + LockNode.EPOCH_LIMIT)
			.withMessageContaining("below " + LockNode.EPOCH_LIMIT);
		assertThatIllegalStateException().isThrownBy(() -> LockNode.fencingTokenOf(-1, 0));
	}

	@Test
	void handOffCountBeyondTheBitsIsRefused() {
		assertThat(LockNode.MAX_HAND_OFFS).isEqualTo(4095).isEqualTo(HandOffPolicy.MAX_HAND_OFFS);
		assertThatIllegalStateException().isThrownBy(() -> LockNode.fencingTokenOf(zxid(1, 1), 4096));
		assertThatIllegalStateException().isThrownBy(() -> LockNode.fencingTokenOf(zxid(1, 1), -1));
	}

	@Test
	void nodeWhoseZxidFitsNoTokenCannotBeQueued() {
		assertThatIllegalStateException().isThrownBy(() -> new LockNode("/locks/k/_c_1-lock-0000000000",
				LockNodeKind.EXCLUSIVE, zxid(LockNode.EPOCH_LIMIT, 0), 1));
	}

	private static long zxid(long epoch, long counter) {
		return (epoch << 32) | counter;
	}

}
