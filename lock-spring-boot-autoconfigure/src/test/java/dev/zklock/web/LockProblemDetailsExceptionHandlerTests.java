package dev.zklock.web;

import java.util.Locale;

import dev.zklock.LockException;
import dev.zklock.LockLostException;
import dev.zklock.StaleFencingTokenException;
import org.junit.jupiter.api.Test;

import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatIllegalArgumentException;

/**
 * The problem details of the failures that a request meets after its lock was had (a lost
 * lock, a refused write), and of a lock exception the handler does not know; the failures
 * of acquisition are answered over HTTP in {@link AbstractLockProblemDetailsTests}.
 */
class LockProblemDetailsExceptionHandlerTests {

	private final LockProblemDetailsExceptionHandler handler = new LockProblemDetailsExceptionHandler(null);

	@Test
	void aLostLockIsAServerErrorThatSaysTheWorkMayHaveOverlappedAnotherHolders() {
		ResponseEntity<ProblemDetail> response = this.handler.handleLockException(
				new LockLostException("order:42", 9001, "the ZooKeeper connection was suspended"), Locale.ROOT);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.INTERNAL_SERVER_ERROR);
		assertThat(response.getBody().getTitle()).isEqualTo("Internal Server Error");
		assertThat(response.getBody().getDetail()).isEqualTo(
				"Lock 'order:42' was lost while the request ran, so its work may have overlapped another holder's");
		assertThat(response.getBody().getProperties()).isNull();
	}

	@Test
	void aRefusedWriteIsAConflictWithoutTheFencingTokens() {
		ResponseEntity<ProblemDetail> response = this.handler
			.handleLockException(new StaleFencingTokenException("order:42", 9001, 9002), Locale.ROOT);
		assertThat(response.getStatusCode()).isEqualTo(HttpStatus.CONFLICT);
		assertThat(response.getBody().getDetail()).isEqualTo(
				"Lock 'order:42' was taken by a newer holder, whose write came first: this request's write was refused");
	}

	@Test
	void aLockExceptionOfAnotherTypeIsRefusedByName() {
		assertThatIllegalArgumentException()
			.isThrownBy(() -> this.handler.handleLockException(new UnknownLockException(), Locale.ROOT))
			.withMessage("No problem detail for " + UnknownLockException.class.getName());
	}

	static class UnknownLockException extends LockException {

		UnknownLockException() {
			super("unknown", null);
		}

	}

}
