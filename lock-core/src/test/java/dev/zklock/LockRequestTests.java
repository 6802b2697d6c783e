package dev.zklock;

import java.time.Duration;

import org.junit.jupiter.api.Test;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

class LockRequestTests {

	@Test
	void requestsHaveNoNameUntilGivenOne() {
		assertThat(LockRequest.exclusive("order:42").name()).isNull();
		assertThat(new LockRequest("order:42", LockType.EXCLUSIVE, 1, null, Duration.ZERO).name()).isNull();
		assertThat(LockRequest.exclusive("order:42").withName("orders").name()).isEqualTo("orders");
	}

	@Test
	void nameIsKeptByTheOtherWithers() {
		LockRequest request = LockRequest.semaphore("export:1", 2)
			.withName("exports")
			.withWaitTime(Duration.ofSeconds(1))
			.withHoldAtLeast(Duration.ofSeconds(2));
		assertThat(request).isEqualTo(new LockRequest("export:1", LockType.SEMAPHORE, 2, Duration.ofSeconds(1),
				Duration.ofSeconds(2), "exports"));
	}

	@Test
	void blankNamesAreRejected() {
		assertThatIllegalArgumentException().isThrownBy(() -> LockRequest.exclusive("order:42").withName(" "));
		assertThatIllegalArgumentException()
			.isThrownBy(() -> new LockRequest("order:42", LockType.EXCLUSIVE, 1, null, Duration.ZERO, ""))
			.withMessageContaining("name");
	}

}
