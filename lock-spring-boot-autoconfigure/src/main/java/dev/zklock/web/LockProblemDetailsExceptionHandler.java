package dev.zklock.web;

import java.util.Locale;

import dev.zklock.AbbreviatedKey;
import dev.zklock.LockAcquisitionException;
import dev.zklock.LockException;
import dev.zklock.LockLostException;
import dev.zklock.LockTimeoutException;
import dev.zklock.StaleFencingTokenException;
import org.jspecify.annotations.Nullable;

import org.springframework.context.MessageSource;
import org.springframework.core.Ordered;
import org.springframework.http.HttpStatus;
import org.springframework.http.ProblemDetail;
import org.springframework.http.ResponseEntity;
import org.springframework.web.ErrorResponse;
import org.springframework.web.bind.annotation.ControllerAdvice;
import org.springframework.web.bind.annotation.ExceptionHandler;

/**
 * Answers a request of a Spring MVC or WebFlux controller whose lock could not be had or
 * kept with a problem detail (RFC 9457, {@code application/problem+json}) whose status
 * says what happened, instead of a bare server error:
 * <ul>
 * <li>{@link LockTimeoutException}: 409 Conflict, another holder kept the lock for the
 * wait time; the request did nothing and may be sent again later;</li>
 * <li>{@link LockAcquisitionException}: 503 Service Unavailable, ZooKeeper could not be
 * reached or failed, or the wait was interrupted; the request did nothing;</li>
 * <li>{@link LockLostException}: 500 Internal Server Error, the lock was lost while the
 * protected code ran, which ran to its end and may have overlapped another holder;</li>
 * <li>{@link StaleFencingTokenException}: 409 Conflict, storage refused a write because a
 * newer holder of the lock had written.</li>
 * </ul>
 * The type is {@code about:blank}, the title the status's reason phrase, and the detail
 * names the lock by its key as {@link AbbreviatedKey} shows it; nothing else of the
 * exception (the holder's host and process, the fencing token, ZooKeeper's errors)
 * appears. As for Spring's own exceptions ({@link ErrorResponse}), the application's
 * {@link MessageSource} may replace each part through the codes
 * {@code problemDetail.type.}, {@code problemDetail.title.} and {@code problemDetail.}
 * followed by the exception's class name (such as
 * {@code problemDetail.dev.zklock.LockTimeoutException}); the detail's message gets the
 * abbreviated key as its argument {@code {0}}.
 * <p>
 * It has the lowest precedence among controller advice, so that an advice of the
 * application that handles these exceptions (or a supertype of them) answers instead;
 * such an advice may still call {@link #handleLockException(LockException, Locale)} for
 * the exceptions it leaves to zklock.
 */
@ControllerAdvice
public class LockProblemDetailsExceptionHandler implements Ordered {

	private final @Nullable MessageSource messageSource;

	/**
	 * Creates the handler.
	 * @param messageSource the source of the application's messages that replace the
	 * type, title or detail, or {@code null} for the ones described above
	 */
	public LockProblemDetailsExceptionHandler(@Nullable MessageSource messageSource) {
		this.messageSource = messageSource;
	}

	/**
	 * The response to a lock failure: a problem detail with the status that fits it.
	 * @param ex the lock failure
	 * @param locale the request's locale, for the messages of the message source
	 * @return the response
	 * @throws IllegalArgumentException if the exception is none of the four above, which
	 * this handler does not know how to answer
	 */
	@ExceptionHandler({ LockTimeoutException.class, LockAcquisitionException.class, LockLostException.class,
			StaleFencingTokenException.class })
	public ResponseEntity<ProblemDetail> handleLockException(LockException ex, Locale locale) {
		ErrorResponse response = errorResponse(ex).build(this.messageSource, locale);
		return ResponseEntity.status(response.getStatusCode()).headers(response.getHeaders()).body(response.getBody());
	}

	private static ErrorResponse.Builder errorResponse(LockException ex) {
		if (ex instanceof LockTimeoutException timeout) {
			return errorResponse(ex, HttpStatus.CONFLICT, timeout.getKey(),
					"was not acquired within " + timeout.getWaitTime().toMillis() + "ms: another holder kept it");
		}
		if (ex instanceof LockAcquisitionException acquisition) {
			return errorResponse(ex, HttpStatus.SERVICE_UNAVAILABLE, acquisition.getKey(),
					"could not be acquired: the lock service is unavailable");
		}
		if (ex instanceof LockLostException lost) {
			return errorResponse(ex, HttpStatus.INTERNAL_SERVER_ERROR, lost.getKey(),
					"was lost while the request ran, so its work may have overlapped another holder's");
		}
		if (ex instanceof StaleFencingTokenException stale) {
			return errorResponse(ex, HttpStatus.CONFLICT, stale.getKey(),
					"was taken by a newer holder, whose write came first: this request's write was refused");
		}
		throw new IllegalArgumentException("No problem detail for " + ex.getClass().getName(), ex);
	}

	private static ErrorResponse.Builder errorResponse(LockException ex, HttpStatus status, String key, String what) {
		String shownKey = AbbreviatedKey.of(key);
		return ErrorResponse.builder(ex, status, "Lock '" + shownKey + "' " + what).detailMessageArguments(shownKey);
	}

	/**
	 * The lowest precedence, so that the application's own advice comes first.
	 * @return {@link Ordered#LOWEST_PRECEDENCE}
	 */
	@Override
	public int getOrder() {
		return Ordered.LOWEST_PRECEDENCE;
	}

}
