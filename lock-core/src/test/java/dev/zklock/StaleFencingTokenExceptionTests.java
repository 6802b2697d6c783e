package dev.zklock;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;

class StaleFencingTokenExceptionTests {

	@Test
	void namesTheKeyTheStaleTokenAndTheNewerOne() {
		StaleFencingTokenException refused = new StaleFencingTokenException("order:42", 4096, 8192);
		assertThat(refused).isInstanceOf(LockException.class)
			.hasMessage("Write under lock 'order:42' refused: its fencing token 4096 is older than 8192, which a "
					+ "newer holder of the lock has written with, so this holder lost the lock (or ZooKeeper's data "
					+ "was reset while the storage kept its tokens)");
		assertThat(refused.getKey()).isEqualTo("order:42");
		assertThat(refused.getFencingToken()).isEqualTo(4096);
		assertThat(refused.getNewerFencingToken()).hasValue(8192);
	}

	@Test
	void saysSoWhenTheStorageDidNotTellTheNewerToken() {
		StaleFencingTokenException refused = new StaleFencingTokenException("x".repeat(200), 4096);
		assertThat(refused).hasMessage("Write under lock '" + "x".repeat(100) + "... (200 characters)' refused: its "
				+ "fencing token 4096 is older than the one that a newer holder of the lock has written with, so this "
				+ "holder lost the lock (or ZooKeeper's data was reset while the storage kept its tokens)");
		assertThat(refused.getKey()).hasSize(200);
		assertThat(refused.getNewerFencingToken()).isEmpty();
	}

}
